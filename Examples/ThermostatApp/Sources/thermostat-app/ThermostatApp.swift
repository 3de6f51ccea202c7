import AirlinkCore
import AirlinkTransports
import ArgumentParser
import Foundation
import ThermostatKit

/// Finds a thermostat, connects, subscribes to its temperature and prints what it sees for a while.
@main
struct ThermostatApp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thermostat-app",
        abstract: "Watch a thermostat's temperature, reconnecting with exponential back-off when the link is lost.")

    @Option(help: "The transport: sim (the built-in virtual world), sim:RECORDING.yaml, bluez or bluez:hci1.")
    var transport = "sim"

    @Option(help: "How long to watch, in seconds (virtual seconds on sim: they pass at once).")
    var seconds = 60

    mutating func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive, not \(seconds)") }
    }

    func run() async throws {
        let opened = try await TransportSelector().open(transport)
        defer { opened.close() }
        let monitor = ThermostatMonitor(transport: opened.transport, environment: opened.environment) {
            print($0)
        }
        let duration = Duration.seconds(seconds)
        do {
            try await opened.run { try await monitor.monitor(for: duration) }
        } catch let error as AirlinkError {
            FileHandle.standardError.write(Data("thermostat-app: \(error)\n".utf8))
            throw ExitCode.failure
        }
        monitor.manager.shutdown()
        print("\(monitor.readings.count) readings, \(monitor.connectionEvents.count) connection events")
    }
}
