import AirlinkTestSupport
import Foundation
import Testing

/// The man page swift-argument-parser's GenerateManual plugin makes: the plugin runs its `generate-manual` tool on the
/// built `airlink`, and so does this test, with the tool the plugin builds (Scripts/test builds it for CI with
/// `swift build --product generate-manual`; the tests skip with that advice when it is not built).
@Suite struct ManPageTests {
    /// `generate-manual`, next to the `airlink` the tests run.
    static let tool = URL(fileURLWithPath: CLI.executable).deletingLastPathComponent()
        .appendingPathComponent("generate-manual").path

    static let commands = [
        "scan", "connect", "read", "write", "subscribe", "devices", "forget", "sensortag", "thermostat", "battery",
        "inspect", "observe", "simulate", "explore", "doctor", "record",
    ]

    /// Runs `executable` with `arguments`; its standard output, standard error and status.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (String, String, Int32) {
        try await offThePool { try blockingRun(executable, arguments) }
    }

    private static func blockingRun(_ executable: String, _ arguments: [String]) throws -> (String, String, Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        (process.standardOutput, process.standardError) = (output, error)
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self), process.terminationStatus)
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: tool),
            "generate-manual is not built: swift build --product generate-manual"))
    func theManPageDocumentsEveryCommand() async throws {
        // When the plugin's tool makes the man page of the built airlink, one page and a page per command
        let (page, errors, status) = try await Self.run(
            Self.tool, [CLI.executable, "--date", "2026-01-01", "--output-directory", "-"])
        let scratch = TemporaryDirectory()
        let directory = scratch.path
        let multi = try await Self.run(
            Self.tool, [CLI.executable, "--multi-page", "--date", "2026-01-01", "--output-directory", directory])

        // Then it is an mdoc page of section 1 with every command and its abstract, and a page for each command
        #expect(status == 0 && errors.isEmpty, "\(errors)")
        #expect(page.contains(".Dt AIRLINK 1") && page.contains(".Sh NAME") && page.contains(".Sh SYNOPSIS"))
        for command in Self.commands { #expect(page.contains(".It Em \(command)\n"), "\(command)") }
        #expect(page.contains("Record a device (advertising, database, values, notifications)"))
        #expect(multi.2 == 0, "\(multi.1)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: directory)
        for command in Self.commands { #expect(pages.contains("airlink.\(command).1"), "\(pages)") }
        withExtendedLifetime(scratch) {}
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: tool),
            "generate-manual is not built: swift build --product generate-manual"),
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"),
            "groff is not installed: bash Scripts/bootstrap (groff-base)"))
    func groffRendersTheManPageWithoutAWarning() async throws {
        // Given the man page of the built airlink
        let (page, errors, status) = try await Self.run(
            Self.tool, [CLI.executable, "--date", "2026-01-01", "--output-directory", "-"])
        #expect(status == 0 && errors.isEmpty, "\(errors)")
        let directory = TemporaryDirectory()
        let file = directory.file("airlink.1")
        try page.write(toFile: file, atomically: true, encoding: .utf8)

        // When groff renders it, warnings on
        let rendered = try await Self.run("/usr/bin/groff", ["-mdoc", "-Tutf8", "-ww", "-z", file])

        // Then it says nothing and succeeds
        #expect(rendered.2 == 0 && rendered.1.isEmpty, "\(rendered.1)")
        withExtendedLifetime(directory) {}
    }
}
