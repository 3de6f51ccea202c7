import AirlinkCore
import Synchronization

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
        // One race, one winner: the operation's outcome or the deadline's expiry (`OneShot` keeps the first).
        let race = OneShot<WatchdogOutcome<Value>>()
        let work = environment.spawn {
            do throws(AirlinkError) {
                race.resume(.success(.finished(try await body())))
            } catch {
                race.resume(.failure(error))
            }
        }
        let clock = environment.clock
        let timer = environment.spawn {
            // try?: a cancelled sleep means the operation finished first; the timer has nothing to resolve.
            guard (try? await clock.sleep(for: deadline)) != nil else { return }
            race.resume(.success(.expired))
        }
        let outcome = await withTaskCancellationHandler {
            await race.wait()
        } onCancel: {
            work.cancel()
        }
        switch outcome {
        case .success(.finished(let value)):
            timer.cancel()
            return value
        case .failure(let error):
            timer.cancel()
            throw error
        case .success(.expired):
            work.cancel()
            let device = connection.device
            environment.trace.record(.watchdogGaveUp(device: device, operation: name, deadline: deadline))
            await connection.disconnect()
            throw AirlinkError(
                .timeout,
                "the watchdog gave up on \(name) on \(device) after its deadline of \(deadline.text)"
                    + (name == "connect"
                        ? "; the attempt was cancelled. Check that the device is advertising and in range, "
                            + "or raise Watchdog.connectDeadline"
                        : "; the link was closed, as an ATT transaction that times out ends the bearer "
                            + "(Core Spec Vol 3, Part F, 3.3.3). Reconnect and retry, or raise "
                            + "Watchdog.operationDeadline"))
        }
    }
}

/// What a watchdog's race ends with: the operation's value, or its deadline (an operation's own error is the
/// race's failure).
enum WatchdogOutcome<Value: Sendable>: Sendable {
    case finished(Value)
    case expired
}
