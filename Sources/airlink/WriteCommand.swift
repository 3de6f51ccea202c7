import Airlink
import AirlinkCore
import AirlinkRegistry
import ArgumentParser

/// `airlink write ID SERVICE CHARACTERISTIC VALUE`: writes a value, with or without response.
struct WriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write", abstract: "Write a characteristic: VALUE in hex (0x0A0B), or typed with --format.")

    @OptionGroup var central: CentralOptions
    @OptionGroup var target: GATTArguments

    @Argument(help: "The value: hex such as 0x0A0B or 0a0b, or typed with --format (--format uint8 90).")
    var value: String

    @Option(name: .long, help: "How VALUE is written: \(ValueFormat.names) (default hex).")
    var format: ValueFormat = .hex

    @Flag(name: .long, help: "Write without response (a command; at most MTU − 3 bytes).")
    var withoutResponse = false

    func validate() throws {
        _ = try format.argumentBytes(of: value)
    }

    /// What `write` reports.
    struct Report: Encodable, Sendable {
        var device: String
        var service: String
        var characteristic: String
        var hex: String
        var type: String
    }

    func run() async throws {
        let (device, service, characteristic) = try target.parsed()
        let bytes = try format.bytes(of: value)
        let type: WriteType = withoutResponse ? .withoutResponse : .withResponse
        try await ConnectingCommand.withConnection(central, to: .id(try DeviceQuery(parsing: target.id))) {
            _, connection in
            try await connection.services.service(service).write(bytes, to: characteristic, type: type)
        }
        let report = Report(
            device: device.description, service: service.description, characteristic: characteristic.description,
            hex: Hex.text(bytes), type: withoutResponse ? "without-response" : "with-response")
        print(
            central.global.json
                ? Output.json(report)
                : "Wrote \(report.hex) to \(Names.labelled(characteristic)) (\(report.type))")
    }
}
