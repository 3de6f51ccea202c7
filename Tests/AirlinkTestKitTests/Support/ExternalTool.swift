import AirlinkTestSupport
import Foundation

/// Runs a tool such as tshark or chromium, if it is installed.
enum ExternalTool {
    static func path(_ name: String) -> String? {
        for directory in ["/usr/bin", "/usr/local/bin", "/bin"]
        where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        return nil
    }

    /// Runs the tool and returns its standard output (standard error is discarded).
    static func run(_ path: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await offThePool { try blockingRun(path, arguments) }
    }

    private static func blockingRun(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "airlink-\(ProcessInfo.processInfo.processIdentifier)-\(name)"
    }
}
