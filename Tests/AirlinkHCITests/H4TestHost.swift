import AirlinkCore
import Dispatch
import Synchronization

@testable import AirlinkHCI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A host for the tests: speaks H4 over a file descriptor (a Unix socket's client end, a pseudo-terminal's
/// slave) and waits for events with a wall-clock deadline (the controller runs paced to the wall clock), each wait
/// for bytes blocking a thread of Dispatch's global queue, never one of the cooperative pool.
///
/// Nothing it does waits forever: a send waits at most ``sendDeadline`` for the controller to take the bytes, and
/// an event or a Command Complete that does not come within its deadline, or a controller that closes the
/// connection first, throws a ``H4TestHost/Failure`` naming what was awaited; a test fails there, saying so,
/// instead of going on with a missing answer or hanging.
final class H4TestHost {
    /// Why a wait of the host ended without what it waited for.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How long a send waits for the controller to take bytes.
    static let sendDeadline = 30
    private let fd: Int32
    private var decoder = H4StreamDecoder()
    /// Events received while the host waited for another, in arrival order: a later wait finds them (an event
    /// that came early, such as a link loss before the answer to a command sent on the link, is not lost).
    private var backlog: [HCIEvent] = []

    /// Connects to a controller's Unix socket (the server listens from its init).
    init(unix path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { throw AirlinkError(.invalidArgument, "cannot connect to \(path)") }
    }

    /// Opens a terminal device (a pseudo-terminal's slave) in raw mode.
    init(terminal path: String) throws {
        fd = open(path, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw AirlinkError(.invalidArgument, "cannot open \(path)") }
        var settings = termios()
        tcgetattr(fd, &settings)
        cfmakeraw(&settings)
        tcsetattr(fd, TCSANOW, &settings)
    }

    deinit { close(fd) }

    /// Sends a command, waiting at most ``sendDeadline`` seconds for the controller to take each part of it.
    ///
    /// - Throws: ``Failure`` when the controller takes nothing for that long, or the connection is gone.
    func send(_ opcode: HCIOpcode, _ parameters: [UInt8] = []) throws {
        let bytes = HCIPacket.command(HCICommand(opcode, parameters)).h4
        var sent = 0
        while sent < bytes.count {
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&entry, 1, Int32(Self.sendDeadline * 1000)) > 0 else {
                throw Failure(description: "the controller took no bytes of \(opcode) for \(Self.sendDeadline) s")
            }
            let count = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard count > 0 else {
                throw Failure(description: "sending \(opcode) failed: errno \(errno)")
            }
            sent += count
        }
    }

    /// Sends the command `count` times without reading anything, as a host that only writes, each send waiting
    /// `seconds` at most, on a thread of Dispatch's global queue (a blocked send must not hold a thread of the
    /// cooperative pool the server's tasks need): how many were sent whole, and the errno of the send that failed
    /// (`nil` if none did; `EAGAIN` when a send waited out its time, `EPIPE` or `ECONNRESET` when the controller
    /// closed the connection).
    func sendWithoutReading(_ opcode: HCIOpcode, count: Int, seconds: Int = 60) async -> (sent: Int, errno: Int32?) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let (fd, bytes) = (self.fd, HCIPacket.command(HCICommand(opcode, [])).h4)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                for index in 0..<count {
                    let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard sent == bytes.count else {
                        continuation.resume(returning: (index, sent < 0 ? errno : nil))
                        return
                    }
                }
                continuation.resume(returning: (count, nil))
            }
        }
    }

    /// The first event that `matches`, already received or still to come (others are kept for later waits).
    ///
    /// - Parameters:
    ///   - what: what the event is, for the failure's message (`LE Connection Complete`).
    ///   - seconds: how long to wait, in wall-clock time (the controller runs paced to the wall clock).
    /// - Throws: ``Failure`` naming `what` when `seconds` pass first or the controller closes the connection.
    func event(_ what: String, within seconds: Int = 120, where matches: (HCIEvent) -> Bool) async throws -> HCIEvent {
        if let index = backlog.firstIndex(where: matches) { return backlog.remove(at: index) }
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while true {
            while let packet = try decoder.next() {
                guard case .event(let event) = packet else { continue }
                if matches(event) { return event }
                backlog.append(event)
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                throw Failure(
                    description: "no \(what) from the controller within \(seconds) s; "
                        + "other events: \(backlog.map { String($0.code, radix: 16) })")
            }
            guard let bytes = await Self.nextBytes(on: fd, within: left) else {
                throw Failure(description: "the controller closed the connection while the host waited for \(what)")
            }
            decoder.append(bytes)
        }
    }

    /// The next bytes on `fd`, waiting for them at most `limit` (none if it passes first or a signal interrupts the
    /// wait; `nil` at the end of the stream), on a thread of Dispatch's global queue: the server's tasks share the
    /// cooperative threads with the test's.
    private static func nextBytes(on fd: Int32, within limit: Duration) async -> [UInt8]? {
        let (seconds, attoseconds) = limit.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, milliseconds) > 0 else { return continuation.resume(returning: []) }
                var buffer = [UInt8](repeating: 0, count: 1024)
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                continuation.resume(returning: count > 0 ? Array(buffer[0..<count]) : nil)
            }
        }
    }

    /// The Command Complete of `opcode`'s return parameters (status first).
    ///
    /// - Throws: ``Failure`` when it does not come within `seconds`.
    func complete(_ opcode: HCIOpcode, within seconds: Int = 120) async throws -> [UInt8] {
        let event = try await event("Command Complete for \(opcode)", within: seconds) {
            $0.code == 0x0E && $0.parameters.count >= 3
                && UInt16($0.parameters[1]) | UInt16($0.parameters[2]) << 8 == opcode.rawValue
        }
        return Array(event.parameters[3...])
    }
}

extension Task where Success == Void, Failure == any Error {
    /// Waits for a served controller's run to end after `stop()`, at most `seconds` of wall-clock time.
    ///
    /// - Throws: what the run threw, or ``H4TestHost/Failure`` when it has not ended by then (the task is left
    ///   running: the test fails instead of waiting for it).
    func end(within seconds: Int = 30) async throws {
        let waiter = RunEndWaiter()
        let run = self
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            waiter.set(continuation)
            Task<Void, Never> { waiter.resume(with: await run.result) }
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
                waiter.resume(
                    with: .failure(
                        H4TestHost.Failure(
                            description: "the controller's run did not end within \(seconds) s of stop()")))
            }
        }
    }
}

/// The continuation of ``Task/end(within:)``, resumed once by whichever comes first: the run's end or the deadline.
private final class RunEndWaiter: Sendable {
    private let continuation = Mutex<CheckedContinuation<Void, any Error>?>(nil)

    func set(_ continuation: CheckedContinuation<Void, any Error>) { self.continuation.withLock { $0 = continuation } }

    func resume(with result: Result<Void, any Error>) { continuation.withLock { $0.take() }?.resume(with: result) }
}

extension HCICommand {
    /// LE Create Connection's parameters to `device`: interval 24 (30 ms), latency 0, timeout 42 (420 ms).
    static func createConnectionParameters(to device: DeviceID) -> [UInt8] {
        [0x60, 0x00, 0x30, 0x00, 0x00, device.hciAddressType] + device.hciAddress + [0x01]
            + [24, 0, 24, 0, 0, 0, 42, 0, 0, 0, 0, 0]
    }
}
