import Airlink
import AirlinkCore
import AirlinkRegistry
import ArgumentParser
import Foundation
import Synchronization

/// `airlink subscribe ID SERVICE CHARACTERISTIC`: prints each notified value as it comes, until
/// interrupted, `--count N` values, or `--duration`. On the simulation virtual time runs until then.
/// When the link is lost for good (no `--reconnect`, or the strategy gave up) it says why and exits 4.
struct SubscribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Stream a characteristic's notifications until interrupted, --count N values or --duration.")

    @OptionGroup var central: CentralOptions
    @OptionGroup var target: GATTArguments

    @Option(name: .long, help: "Also print each value as: \(ValueFormat.names).")
    var format: ValueFormat?

    @Option(name: .long, parsing: .unconditional, help: "Stop after this many values.")
    var count: Int?

    @Option(
        name: .long, parsing: .unconditional,
        help: "Stop after this long: 30s, 10m. On sim, virtual time (passing at once); sim stops after 10m without it.")
    var duration: String?

    /// How long `sim` runs without `--duration` (virtual time passes at once, but it must end).
    static let simulatedDefault = Duration.seconds(600)

    func validate() throws {
        if let count, count <= 0 {
            throw ValidationError("--count \(count): write a positive number of values, such as --count 5")
        }
        if let duration {
            _ = try DurationArgument.parse(
                duration, flag: "--duration", maximum: DurationArgument.maximum(on: central.global))
        }
    }

    func run() async throws {
        let (device, service, characteristic) = try target.parsed()
        var limit = try duration.map { text throws(ValidationError) in
            try DurationArgument.parse(text, flag: "--duration")
        }
        if limit == nil, case .simulation = try central.global.specifier() {
            limit = Self.simulatedDefault
        }
        let stop = limit
        let received: Int
        do {
            received = try await subscribe(device, service, characteristic, limit: stop)
        } catch let loss as LinkLoss {
            throw CommandFailure(loss.description, status: ExitStatus.linkLost)
        }
        if let count, received < count {
            throw CommandFailure(
                "received \(received) of \(count) values before --duration ended", status: ExitStatus.incomplete)
        }
    }

    /// Connects, enables notifications and prints values until the count, the limit, or the link's end.
    private func subscribe(
        _ device: DeviceID, _ service: BluetoothUUID, _ characteristic: BluetoothUUID, limit stop: Duration?
    ) async throws -> Int {
        let (format, count, json) = (self.format, self.count, central.global.json)
        return try await ConnectingCommand.withConnection(central, to: .id(try DeviceQuery(parsing: target.id))) {
            session, connection in
            let environment = session.environment
            let manager = connection.services.service(service)
            let values = manager.values(of: characteristic)
            let events = connection.events()
            let strategy = connection.reconnectionStrategy
            try await manager.enableNotifications(for: characteristic)
            let start = environment.clock.now
            let printed = Tally()
            let ended = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask(executorPreference: environment.executor) {
                    for await value in values {
                        let elapsed = start.duration(to: environment.clock.now)
                        let report = try ValueReport(
                            device: device, service: service, characteristic: characteristic, bytes: value.bytes,
                            format: format,
                            time: Seconds(elapsed))
                        // At once: the output is often a pipe, read as values come.
                        if json {
                            emit(Output.jsonLine(report))
                        } else {
                            // The tab between time and value is the line's own, not to be escaped as
                            // `emit` escapes the text a device chose (report.text escapes its value).
                            print("\(elapsed.text)\t\(report.text)")
                            fflush(nil)
                        }
                        let total = printed.increment()
                        if let count, total >= count { return false }
                    }
                    // The layers end the values when the link is gone for good.
                    return !Task.isCancelled
                }
                if let stop {
                    group.addTask(executorPreference: environment.executor) {
                        try await environment.clock.sleep(for: stop)
                        return false
                    }
                }
                let ended = try await group.next() ?? false
                group.cancelAll()
                return ended
            }
            if ended {
                let why = await LinkLoss.reason(in: events, strategy: strategy)
                throw LinkLoss(
                    device: device, received: printed.value, error: why?.error,
                    gaveUp: why?.gaveUp ?? !(strategy is NoReconnectionStrategy))
            }
            // try?: the values asked for are printed; turning notifications off on the way out is a courtesy to
            // the device, and a refusal (the link just went) changes nothing the user asked for.
            try? await manager.disableNotifications(for: characteristic)
            return printed.value
        }
    }
}

/// A count shared by the tasks of a subscription.
final class Tally: Sendable {
    private let count = Mutex(0)

    /// Adds one; returns the new count.
    func increment() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }

    /// How many values were printed so far; read from any thread.
    var value: Int { count.withLock { $0 } }
}
