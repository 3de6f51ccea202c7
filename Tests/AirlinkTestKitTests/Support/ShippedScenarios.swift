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
    static var all: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".yaml") }
            .sorted()
    }
}
