import AirlinkCore
import ArgumentParser

/// The positional arguments of read, write and subscribe: ID SERVICE CHARACTERISTIC.
struct GATTArguments: ParsableArguments {
    @Argument(help: "The device id, such as C0:FF:EE:00:00:01 (airlink scan lists them).")
    var id: String

    @Argument(help: "The service: a UUID, or an assigned name such as battery.")
    var service: String

    @Argument(help: "The characteristic: a UUID, or an assigned name such as battery-level.")
    var characteristic: String

    func validate() throws {
        _ = try Arguments.device(id)
        _ = try Arguments.uuid(service, "service")
        _ = try Arguments.uuid(characteristic, "characteristic")
    }

    /// The parsed device, service and characteristic.
    func parsed() throws -> (device: DeviceID, service: BluetoothUUID, characteristic: BluetoothUUID) {
        (
            try Arguments.device(id), try Arguments.uuid(service, "service"),
            try Arguments.uuid(characteristic, "characteristic")
        )
    }
}

/// One value as commands print it: hex always, typed with `--format`.
struct ValueReport: Encodable, Sendable {
    var device: String
    var service: String
    var characteristic: String
    var hex: String
    var format: String?
    var value: String?
    /// Virtual or wall time since the command connected, in seconds to the microsecond (subscribe only).
    var time: Seconds?

    init(
        device: DeviceID, service: BluetoothUUID, characteristic: BluetoothUUID, bytes: [UInt8], format: ValueFormat?,
        time: Seconds? = nil
    ) throws(AirlinkError) {
        self.device = device.description
        self.service = service.description
        self.characteristic = characteristic.description
        self.hex = Hex.text(bytes)
        if let format, format != .hex {
            self.format = format.rawValue
            self.value = try format.text(of: bytes)
        }
        self.time = time
    }

    /// `0x5a (uint8 90)`; control characters in a text value are escaped.
    var text: String {
        guard let format, let value else { return hex }
        return "\(hex) (\(format) \(value.escapingControlCharacters()))"
    }
}
