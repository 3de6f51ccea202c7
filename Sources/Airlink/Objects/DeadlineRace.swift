import AirlinkCore
import Synchronization

/// The first of an operation's outcome and its deadline: whichever resolves first wins, once.
final class DeadlineRace<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, AirlinkError>?
        var waiter: CheckedContinuation<Result<Value, AirlinkError>, Never>?
        var expired = false
    }

    private let state = Mutex(State())

    /// Whether the deadline won the race.
    var expired: Bool { state.withLock { $0.expired } }

    /// Resolves the race unless it was resolved already; returns whether this call won.
    ///
    /// - Parameters:
    ///   - result: the outcome.
    ///   - expired: whether the deadline is resolving it.
    @discardableResult
    func resolve(_ result: Result<Value, AirlinkError>, expired: Bool = false) -> Bool {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Value, AirlinkError>, Never>?? in
            guard state.result == nil else { return .none }
            state.result = result
            state.expired = expired
            defer { state.waiter = nil }
            return .some(state.waiter)
        }
        guard let waiter else { return false }
        waiter?.resume(returning: result)
        return true
    }

    /// Waits for the outcome.
    func wait() async -> Result<Value, AirlinkError> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, AirlinkError>? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// Runs operations under the deadlines of a ``Watchdog``.
struct WatchdogRunner: Sendable {
    let watchdog: Watchdog
    let environment: AirlinkEnvironment
    let connection: ConnectionManager

    /// Runs a GATT operation under the operation deadline; past it, disconnects and throws `.timeout`.
    func operation<Value: Sendable>(
        _ name: String, _ body: @escaping @Sendable () async throws(AirlinkError) -> Value
    ) async throws(AirlinkError) -> Value {
        try await run(name, deadline: watchdog.operationDeadline, body)
    }

    /// Runs a connection attempt under the connect deadline; past it, cancels it and throws `.timeout`.
    func connect(_ body: @escaping @Sendable () async throws(AirlinkError) -> Void) async throws(AirlinkError) {
        try await run("connect", deadline: watchdog.connectDeadline, body)
    }

    private func run<Value: Sendable>(
        _ name: String, deadline: Duration?, _ body: @escaping @Sendable () async throws(AirlinkError) -> Value
    ) async throws(AirlinkError) -> Value {
        guard let deadline else { return try await body() }
        let race = DeadlineRace<Value>()
        let work = environment.spawn {
            do throws(AirlinkError) {
                race.resolve(.success(try await body()))
            } catch {
                race.resolve(.failure(error))
            }
        }
        let device = connection.device
        let clock = environment.clock
        let timer = environment.spawn {
            // try?: sleep throws only when cancelled, as the work finished first; the race is decided then
            guard (try? await clock.sleep(for: deadline)) != nil else { return }
            let isConnect = name == "connect"
            race.resolve(
                .failure(
                    AirlinkError(
                        .timeout,
                        "the watchdog gave up on \(name) on \(device) after its deadline of \(deadline.text)"
                            + (isConnect
                                ? "; the attempt was cancelled. Check that the device is advertising and in range, "
                                    + "or raise Watchdog.connectDeadline"
                                : "; the link was closed, as an ATT transaction that times out ends the bearer "
                                    + "(Core Spec Vol 3, Part F, 3.3.3). Reconnect and retry, or raise "
                                    + "Watchdog.operationDeadline"))), expired: true)
        }
        let result = await withTaskCancellationHandler {
            await race.wait()
        } onCancel: {
            work.cancel()
        }
        if race.expired {
            work.cancel()
            environment.trace.record(.watchdogGaveUp(device: device, operation: name, deadline: deadline))
            await connection.disconnect()
        } else {
            timer.cancel()
        }
        return try result.get()
    }
}
