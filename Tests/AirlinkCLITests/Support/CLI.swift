import AirlinkTestSupport
import Foundation
import Testing

/// Runs the built `airlink` executable as a subprocess, as a user would, with a private data
/// directory so that no test touches the user's registry.
struct CLI: Sendable {
    /// What one invocation printed and how it ended.
    struct Result: Sendable, CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether it ended by a signal (a trap, an abort) rather than by exiting.
        var signalled = false
        /// Whether it was still running at the deadline of ``Running/wait(upTo:)`` and was ended then.
        var timedOut = false
        /// How long it ran, on the wall clock (a measurement, never a condition waited for).
        var elapsed: Duration = .zero

        /// The standard output parsed as JSON.
        func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(stdout.utf8)) }

        var description: String {
            let ending = timedOut ? "timed out" : signalled ? "signal \(status)" : "exit \(status)"
            return "\(ending) after \(elapsed)\nstdout:\n\(stdout)\nstderr:\n\(stderr)"
        }
    }

    /// A scratch directory (the data directory, registries), removed by ``cleanUp()``.
    let directory: String
    /// Variables added to the environment of every invocation.
    var environment: [String: String]

    init(environment: [String: String] = [:]) throws {
        directory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("airlink-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.environment = ["XDG_DATA_HOME": directory + "/data"].merging(environment) { $1 }
    }

    /// The `airlink` executable next to the test bundle (`swift build --build-tests` builds it).
    static let executable: String = {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("airlink").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(".build/debug/airlink").path
    }()

    /// Runs `airlink` with `arguments` and waits for it.
    func run(_ arguments: String...) async throws -> Result { try await run(arguments) }

    /// Runs `airlink` with `arguments` and waits for it.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> Result {
        try await start(arguments, environment: extra).wait()
    }

    /// A running `airlink`, for commands that run until interrupted.
    struct Running: @unchecked Sendable {
        // @unchecked: Process is used from one test at a time.
        let process: Process
        let out: String
        let err: String
        let exited: DispatchSemaphore
        let started: ContinuousClock.Instant

        /// Sends SIGINT, as Ctrl-C would.
        func interrupt() { process.interrupt() }

        /// Waits until the standard output contains `text`, as the process prints it; throws, with what the
        /// process printed, if it ends first or `limit` passes (then it is killed).
        func waitForOutput(containing text: String, within limit: Duration = .seconds(10)) async throws {
            let deadline = ContinuousClock.now.advanced(by: limit)
            while true {
                // Ask whether it runs before reading the output, so that output printed just before the end counts.
                let running = process.isRunning
                if (try? String(contentsOfFile: out, encoding: .utf8))?.contains(text) == true { return }
                guard running, ContinuousClock.now < deadline else {
                    if running { kill(process.processIdentifier, SIGKILL) }
                    process.waitUntilExit()
                    let when = running ? "within \(limit)" : "before it ended"
                    throw CLIFailure(
                        description: "airlink printed no \"\(text)\" \(when): \(try result(timedOut: running))")
                }
                // The output goes to a file, which tells no one it grew: poll it.
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        /// Waits `limit` at most for the process to end; `nil` (and the process killed) if it did not.
        func wait(within limit: Duration) async throws -> Result? {
            let exited = self.exited
            let ended = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: exited.wait(timeout: Self.dispatchTime(after: limit)) == .success)
                }
            }
            guard ended else {
                process.terminate()
                _ = try await wait()
                return nil
            }
            exited.signal()  // for a later wait(upTo:)
            return try await wait()
        }

        /// Waits for the process to end and collects what it printed.
        func wait() async throws -> Result {
            try await offThePool {
                process.waitUntilExit()
                return try result(timedOut: false)
            }
        }

        /// Waits for the process to end, at most `deadline`; ends it (SIGKILL) if it is still running then.
        func wait(upTo deadline: Duration) async throws -> Result {
            try await offThePool {
                if exited.wait(timeout: Self.dispatchTime(after: deadline)) == .success {
                    process.waitUntilExit()
                    return try result(timedOut: false)
                }
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return try result(timedOut: true)
            }
        }

        private static func dispatchTime(after duration: Duration) -> DispatchTime {
            .now() + Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }

        private func result(timedOut: Bool) throws -> Result {
            Result(
                status: process.terminationStatus, stdout: try String(contentsOfFile: out, encoding: .utf8),
                stderr: try String(contentsOfFile: err, encoding: .utf8),
                signalled: process.terminationReason == .uncaughtSignal, timedOut: timedOut,
                elapsed: started.duration(to: .now))
        }
    }

    /// Starts `airlink` with `arguments` without waiting for it.
    func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        variables["AIRLINK_TRANSPORT"] = nil
        variables.merge(environment) { $1 }
        variables.merge(extra) { $1 }
        process.environment = variables
        let name = UUID().uuidString
        let (out, err) = (directory + "/\(name).out", directory + "/\(name).err")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let started = ContinuousClock.now
        try process.run()
        return Running(process: process, out: out, err: err, exited: exited, started: started)
    }

    /// Removes the scratch directory.
    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }
}

/// The built-in world's devices and the thermostat's vendor UUIDs, as a user types them.
enum World {
    static let thermostat = "C0:FF:EE:00:00:01"
    static let battery = "B4:77:E2:00:00:02"
    static let temperatureService = "68753A44-4D6F-1226-9C60-0050E4C00066"
    static let temperature = "68753A44-4D6F-1226-9C60-0050E4C00067"

    /// A file shipped in the repository, by its path from the root (`Simulations/linear-link-loss.yaml`).
    static func shipped(_ path: String) -> String {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(path).path
    }
}
