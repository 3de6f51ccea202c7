import Airlink
import AirlinkCore
import AirlinkProfiles
import ArgumentParser

/// `airlink battery ID`: a device's battery level (the SIG Battery Service, or the thermostat's own).
struct BatteryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "battery", abstract: "Read a device's battery level.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The device's identifier (the simulated battery sensor is B4:77:E2:00:00:02).")
    var id: String

    func validate() throws { _ = try Arguments.device(id) }

    /// What `battery` reports: the level in percent and the service it came from.
    struct Report: Encodable, Sendable {
        var device: String
        var level: Int
        var service: String
    }

    func run() async throws {
        let (device, level, variant) = try await DeviceSession.run(global, device: id) {
            connection, _ in
            do {
                return (connection.device, try await BatteryService(connection).level(), "Battery Service 0x180F")
            } catch let error as AirlinkError {
                guard error.code == .serviceNotFound else { throw error }
                return (
                    connection.device, try await BatteryService(connection, variant: .thermostat).level(),
                    "thermostat battery service"
                )
            }
        }
        if global.json {
            print(Output.json(Report(device: device.description, level: Int(level.percent), service: variant)))
        } else {
            print("\(id): battery \(level) (\(variant))")
        }
    }
}
