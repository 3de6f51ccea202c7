import Airlink
import AirlinkCore
import AirlinkRegistry
import ArgumentParser
import Synchronization

/// `airlink subscribe ID SERVICE CHARACTERISTIC`: prints each notified value as it comes, until
/// interrupted, `--count N` values, or `--duration`. On the simulation virtual time runs until then.
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
        let (format, count, json) = (self.format, self.count, central.global.json)
        var limit = try duration.map { text throws(ValidationError) in
            try DurationArgument.parse(text, flag: "--duration")
        }
        if limit == nil, case .simulation = try central.global.specifier() {
            limit = Self.simulatedDefault
        }
        let stop = limit
        let received = try await Central.withConnection(central, to: .id(try DeviceQuery(parsing: target.id))) {
            session, connection in
            let environment = session.environment
            let manager = connection.services.service(service)
            let values = manager.values(of: characteristic)
            try await manager.enableNotifications(for: characteristic)
            let start = environment.clock.now
            let printed = Tally()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask(executorPreference: environment.executor) {
                    for await value in values {
                        let elapsed = start.duration(to: environment.clock.now)
                        let report = try ValueReport(
                            device: device, service: service, characteristic: characteristic, bytes: value.bytes,
                            format: format,
                            time: Double(elapsed.components.seconds)
                                + Double(elapsed.components.attoseconds) * 1e-18)
                        print(json ? Output.jsonLine(report) : "\(seconds(elapsed))\t\(report.text)")
                        let total = printed.increment()
                        if let count, total >= count { return }
                    }
                }
                if let stop {
                    group.addTask(executorPreference: environment.executor) {
                        try await environment.clock.sleep(for: stop)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
            try? await manager.disableNotifications(for: characteristic)
            return printed.value
        }
        if let count, received < count {
            writeError("received \(received) of \(count) values before --duration ended")
            throw ExitCode(3)
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

    /// The count.
    var value: Int { count.withLock { $0 } }
}
