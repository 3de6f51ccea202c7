import AirlinkTestSupport
import Foundation
import Synchronization
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
        let output: CapturedOutput
        let err: String
        let exited: DispatchSemaphore
        let started: ContinuousClock.Instant

        /// Sends SIGINT, as Ctrl-C would.
        func interrupt() { process.interrupt() }

        /// Waits until the standard output contains `text`, as the process prints it; throws, with what the
        /// process printed, if its output ends first or `limit` passes (then it is killed).
        func waitForOutput(containing text: String, within limit: Duration = .seconds(10)) async throws {
            switch await output.wait(for: text, within: limit) {
            case .found: return
            case .ended, .timedOut:
                let running = process.isRunning
                if running { kill(process.processIdentifier, SIGKILL) }
                let ended = try await offThePool {
                    process.waitUntilExit()
                    return try result(timedOut: running)
                }
                let when = running ? "within \(limit)" : "before it ended"
                throw CLIFailure(description: "airlink printed no \"\(text)\" \(when): \(ended)")
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

        /// What the ended process printed and how it ended; waits (on the caller's thread) for its standard output
        /// to be read to its end.
        private func result(timedOut: Bool) throws -> Result {
            Result(
                status: process.terminationStatus, stdout: output.drained(),
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
        let err = directory + "/\(name).err"
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let started = ContinuousClock.now
        try process.run()  // closes the parent's copy of the pipe's write end: the pipe ends when the process does
        return Running(
            process: process, output: CapturedOutput(reading: pipe.fileHandleForReading), err: err, exited: exited,
            started: started)
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

/// A process's standard output, read from its pipe as it comes: a test waits for a text to appear (woken by the
/// read that brings it, not by polling), and reads the whole output once the pipe reaches its end.
final class CapturedOutput: Sendable {
    /// How a wait for a text ended.
    enum Outcome: Sendable {
        /// The output contains the text.
        case found
        /// The output ended (the process closed it, by ending) without it.
        case ended
        /// The limit passed first.
        case timedOut
    }

    private struct Waiter {
        let id: Int
        let text: String
        let continuation: CheckedContinuation<Outcome, Never>
    }

    private struct State {
        var bytes: [UInt8] = []
        var ended = false
        var waiters: [Waiter] = []
        var nextID = 0
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    private let state = Mutex(State())
    /// Left once the pipe reached its end.
    private let end = DispatchGroup()

    /// Starts reading `handle` to its end, on a thread of Dispatch's global queue (a blocking read, off the
    /// cooperative pool).
    init(reading handle: FileHandle) {
        end.enter()
        DispatchQueue.global().async { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                append(Array(chunk))
            }
            finish()
            end.leave()
        }
    }

    private func append(_ chunk: [UInt8]) {
        let ready = state.withLock { state -> [Waiter] in
            state.bytes += chunk
            let text = state.text
            let ready = state.waiters.filter { text.contains($0.text) }
            state.waiters.removeAll { waiter in ready.contains { $0.id == waiter.id } }
            return ready
        }
        for waiter in ready { waiter.continuation.resume(returning: .found) }
    }

    private func finish() {
        let left = state.withLock { state -> [Waiter] in
            state.ended = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in left { waiter.continuation.resume(returning: .ended) }
    }

    /// Waits until the output contains `text`, it ends without it, or `limit` passes on the wall clock.
    func wait(for text: String, within limit: Duration) async -> Outcome {
        await withCheckedContinuation { continuation in
            let id = state.withLock { state -> Int? in
                if state.text.contains(text) {
                    continuation.resume(returning: .found)
                    return nil
                }
                if state.ended {
                    continuation.resume(returning: .ended)
                    return nil
                }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, text: text, continuation: continuation))
                return state.nextID
            }
            guard let id else { return }
            // The deadline: a real process runs on the wall clock.
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.seconds(limit)) { [self] in
                let expired = state.withLock { state -> Waiter? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index)
                }
                expired?.continuation.resume(returning: .timedOut)
            }
        }
    }

    /// The whole output, once the pipe reached its end (blocks the caller's thread until then, 10 s at most: a
    /// child the process left behind may hold the pipe open, and then what came so far is all there is).
    func drained() -> String {
        _ = end.wait(timeout: .now() + 10)
        return state.withLock { $0.text }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
