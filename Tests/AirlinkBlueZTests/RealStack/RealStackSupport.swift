import AirlinkBlueZTestSupport
import AirlinkCore
import Foundation
import Synchronization

@testable import AirlinkBlueZ

/// Where the real-stack tests keep what a failure is read from (the controllers' traces and captures): the
/// harness's artefacts folder (`REALSTACK_ARTEFACTS`, or `AIRLINK_REALSTACK_ARTEFACTS` to choose another), or the
/// temporary folder.
enum RealStackArtefacts {
    static let folder =
        ProcessInfo.processInfo.environment["AIRLINK_REALSTACK_ARTEFACTS"]
        ?? ProcessInfo.processInfo.environment["REALSTACK_ARTEFACTS"] ?? FileManager.default.temporaryDirectory.path

    static func path(_ name: String) -> String { folder + "/" + name }

    /// A file of lines, written as they come.
    static func file(_ name: String) -> LineFile { LineFile(path: path(name)) }
}

/// A file that lines are appended to from any thread.
final class LineFile: Sendable {
    private let handle: Mutex<FileHandle?>

    init(path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)  // no file: no handle, nothing written
        handle = Mutex(FileHandle(forWritingAtPath: path))
    }

    func write(_ line: String) {
        handle.withLock { $0?.write(Data((line + "\n").utf8)) }
    }
}

/// The adapter a real-stack world's controller became, as bluetoothd sees it.
enum RealStackAdapter {
    /// Waits until bluetoothd has `adapter` and it is powered, powering it with btmgmt when bluetoothd left it off.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` naming what did not happen within its deadline.
    static func powerOn(_ adapter: String) async throws {
        // BlueZTransport opens only an adapter bluetoothd already lists, so this first wait asks again until it does
        let transport = try await poll(within: .seconds(30), "bluetoothd did not list \(adapter)") {
            () async -> BlueZTransport? in
            try? await open(adapter)  // try?: not listed yet; the next attempt asks again
        }
        defer { transport.close() }
        let events = transport.events()
        guard await transport.adapterState != .poweredOn else { return }
        // Powered by btmgmt, then told by bluetoothd's Powered change: no polling
        try runBtmgmt(["--index", String(adapter.dropFirst(3)), "power", "on"])
        let powered = await firstWithin(events, .seconds(30)) { event -> Bool? in
            if case .adapterStateChanged(.poweredOn) = event { true } else { nil }
        }
        let state = await transport.adapterState
        guard powered != nil || state == .poweredOn else {
            throw AirlinkError(.timeout, "\(adapter) did not power on within 30 s")
        }
    }

    private static func open(_ adapter: String) async throws -> BlueZTransport {
        try await BlueZTransport.open(
            BlueZTransport.Configuration(
                adapter: adapter, busAddress: nil, operationTimeout: .seconds(5), servicesGrace: .seconds(1),
                servicesQuietPeriod: .milliseconds(200), servicesSettleLimit: .seconds(5)))
    }

    /// What `attempt` gives first, asking every 100 ms until `limit` has passed (real time: bluetoothd is another
    /// process, and nothing signals an adapter it has not listed yet).
    private static func poll<Value>(
        within limit: Duration, _ failure: String, _ attempt: () async -> Value?
    ) async throws -> Value {
        let deadline = ContinuousClock.now.advanced(by: limit)
        while ContinuousClock.now < deadline {
            if let value = await attempt() { return value }
            try await Task.sleep(for: .milliseconds(100))  // real time: bluetoothd is another process
        }
        throw AirlinkError(.timeout, "\(failure) within \(limit)")
    }

    /// Runs btmgmt (BlueZ's management tool) with a 20 s deadline.
    static func runBtmgmt(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "2", "20", "btmgmt"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw AirlinkError(
                .adapterPoweredOff, "btmgmt \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }
}
