import Foundation

/// Where the shipped scenarios are: Simulations/ at the package's root.
enum ShippedScenarios {
    static var directory: String {
        let file = #filePath
        let tests = file.range(of: "/Tests/")!.lowerBound
        return String(file[..<tests]) + "/Simulations"
    }

    static func path(_ name: String) -> String { directory + "/" + name }

    /// Every `.yaml` scenario, sorted.
    static var all: [String] { yamlFiles(in: directory) }

    /// Every regression scenario (`Simulations/regressions/`), sorted: each states what it pins in its `expect:`.
    static var regressions: [String] { yamlFiles(in: path("regressions")) }

    /// The `.yaml` files of a folder, sorted; none when it cannot be read (the parameterized test then has no case,
    /// and `RegressionScenarioTests` checks that there are some).
    private static func yamlFiles(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".yaml") }
            .sorted()
    }
}
