import Foundation
import Testing

/// The newcomer's five minutes: Package.swift's header, the README's layout, Docs/Architecture.md and the DocC
/// landing page name every target the manifest declares, and the architecture's drawing tells the truth about
/// which way dependencies point. The manifest is read as data (`swift package dump-package`), not as text.
@Suite struct FrontDoorTests {
    @Test func architectureNamesEveryTargetAndNoOther() throws {
        let manifest = try PackageManifest.current.get()
        let section = try FrontDoor.section("## Targets", of: "Docs/Architecture.md")
        let rows = Set(FrontDoor.tableNames(in: section))
        let declared = Set(manifest.targets.map(\.name))
        #expect(declared.subtracting(rows).sorted() == [], "targets Docs/Architecture.md's table does not name")
        #expect(rows.subtracting(declared).sorted() == [], "names in Docs/Architecture.md's table that are no target")
    }

    @Test func theDiagramDrawsEveryDependencyPointingDown() throws {
        let manifest = try PackageManifest.current.get()
        let section = try FrontDoor.section("## Targets", of: "Docs/Architecture.md")
        let names = Set(manifest.targets.map(\.name))
        let rows = FrontDoor.diagramRows(in: section, names: names)
        for target in manifest.targets where target.type != "test" {
            let placed = rows.filter { $0.names.contains(target.name) }
            try #require(placed.count == 1, "\(target.name) is drawn \(placed.count) times in the diagram, not once")
            let row = placed[0].index
            for dependency in target.packageDependencies where names.contains(dependency) {
                let below = rows.first { $0.names.contains(dependency) }?.index ?? -1
                #expect(below > row, "\(target.name) depends on \(dependency), not drawn below it")
            }
        }
    }

    @Test func packageHeaderNamesEveryTarget() throws {
        let manifest = try PackageManifest.current.get()
        let text = try FrontDoor.read("Package.swift")
        let header = text.components(separatedBy: "let package = Package(")[0]
        let missing = manifest.targets.map(\.name).filter { !header.contains("`\($0)`") }
        #expect(missing == [], "targets Package.swift's header comment does not name")
    }

    @Test func readmeLayoutNamesEverySourceTarget() throws {
        let manifest = try PackageManifest.current.get()
        let layout = try FrontDoor.section("## Layout", of: "README.md")
        let missing = manifest.targets.filter { $0.type != "test" }.map(\.name).filter {
            !layout.contains("Sources/\($0)`") && !layout.contains("`\($0)`")
        }
        #expect(missing == [], "targets the README's layout table does not name")
    }

    @Test func docCLandingPageListsEveryProductAboveWhatItUses() throws {
        let manifest = try PackageManifest.current.get()
        let page = try FrontDoor.read("Sources/Airlink/Airlink.docc/Airlink.md")
        let listed = FrontDoor.tableNames(in: page)
        let products = manifest.products.map(\.name)
        #expect(Set(products).subtracting(listed).sorted() == [], "products the DocC landing page does not list")
        for (position, module) in listed.enumerated() {
            let target = try #require(manifest.targets.first { $0.name == module }, "\(module) is no target")
            for dependency in target.packageDependencies {
                guard let at = listed.firstIndex(of: dependency) else { continue }
                #expect(at > position, "\(module) uses \(dependency), listed above it on the DocC landing page")
            }
        }
    }
}

/// The package as `swift package dump-package` describes it.
struct PackageManifest: Decodable {
    struct Target: Decodable {
        var name: String
        var type: String
        /// The targets of this package it depends on, by name (products of other packages left out).
        var packageDependencies: [String]

        enum CodingKeys: String, CodingKey { case name, type, dependencies }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            type = try container.decode(String.self, forKey: .type)
            let dependencies = try container.decode([[String: [String?]]].self, forKey: .dependencies)
            packageDependencies = dependencies.compactMap { ($0["byName"] ?? $0["target"])?.first ?? nil }
        }
    }

    struct Product: Decodable { var name: String }

    var targets: [Target]
    var products: [Product]

    /// Runs `swift package dump-package` on the repository, with its own scratch path so that it never waits for
    /// the build lock of the `swift test` running this, and without `AIRLINK_BENCHMARKS` so that the manifest is
    /// the one users get.
    /// The manifest, read once for the suite.
    static let current = Result { try load() }

    static func load() throws -> PackageManifest {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("airlink-front-door-manifest")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--scratch-path", scratch.path, "dump-package"]
        process.currentDirectoryURL = FrontDoor.root
        var environment = ProcessInfo.processInfo.environment
        environment["AIRLINK_BENCHMARKS"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        if exited.wait(timeout: .now() + 300) == .timedOut {
            process.terminate()
            throw FrontDoorError("swift package dump-package did not finish within 300 s")
        }
        guard process.terminationStatus == 0 else {
            throw FrontDoorError("swift package dump-package exited with \(process.terminationStatus)")
        }
        return try JSONDecoder().decode(PackageManifest.self, from: data)
    }
}

struct FrontDoorError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reading the repository's front-door documents.
enum FrontDoor {
    /// The repository's root: this file is Tests/AirlinkCoreTests/FrontDoorTests.swift.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The text from a heading to the next heading of the same level.
    static func section(_ heading: String, of path: String) throws -> String {
        let text = try read(path)
        guard let start = text.range(of: "\n\(heading)\n") else {
            throw FrontDoorError("\(path) has no section \(heading)")
        }
        let rest = text[start.upperBound...]
        let level = heading.prefix { $0 == "#" }
        let end = rest.range(of: "\n\(level) ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The code-formatted names in the first column of the Markdown tables in `text`, in order.
    static func tableNames(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> [String]? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard line.hasPrefix("|"), cells.count > 2 else { return nil }
            let first = cells[1].trimmingCharacters(in: .whitespaces)
            guard first.hasPrefix("`") else { return nil }
            return first.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
        }.flatMap { $0 }
    }

    /// The rows of the section's first code block, top first, each with the target names drawn on it.
    static func diagramRows(in section: String, names: Set<String>) -> [(index: Int, names: Set<String>)] {
        let blocks = section.components(separatedBy: "```")
        guard blocks.count > 2 else { return [] }
        return blocks[1].split(separator: "\n").enumerated().map { index, line in
            (index, Set(line.split(separator: " ").map(String.init).filter(names.contains)))
        }
    }
}
