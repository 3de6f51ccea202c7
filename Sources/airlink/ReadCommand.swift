import Airlink
import AirlinkCore
import AirlinkRegistry
import ArgumentParser

/// `airlink read ID SERVICE CHARACTERISTIC`: reads a characteristic's value once.
struct ReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read", abstract: "Read a characteristic: prints hex, and the typed value with --format.")

    @OptionGroup var central: CentralOptions
    @OptionGroup var target: GATTArguments

    @Option(name: .long, help: "Also print the value as: \(ValueFormat.names).")
    var format: ValueFormat?

    func run() async throws {
        let (device, service, characteristic) = try target.parsed()
        let format = self.format
        let report = try await ConnectingCommand.withConnection(central, to: .id(try DeviceQuery(parsing: target.id))) {
            _, connection in
            let bytes = try await connection.services.service(service).read(characteristic)
            return try ValueReport(
                device: device, service: service, characteristic: characteristic, bytes: bytes, format: format)
        }
        print(central.global.json ? Output.json(report) : report.text)
    }
}
