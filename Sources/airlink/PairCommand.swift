import Airlink
import AirlinkCore
import AirlinkRegistry
import ArgumentParser

/// `airlink pair ID [--passkey N | --confirm]`: connects, pairs (or encrypts with the bond), records the bond in
/// the registry, disconnects.
struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair with a device (Just Works, a passkey typed ahead, or a confirmed comparison) and keep the bond."
    )

    @OptionGroup var central: CentralOptions

    @Argument(help: "The device id, such as C0:FF:EE:00:00:01 (airlink scan lists them).")
    var id: String

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("The passkey the device shows, typed ahead: six digits, 0 to 999999.", valueName: "N"))
    var passkey: String?

    @Flag(name: .long, help: "Confirm that the numbers both devices show match (numeric comparison).")
    var confirm = false

    func validate() throws {
        _ = try Arguments.device(id)
        if passkey != nil && confirm {
            throw ValidationError("give either --passkey N or --confirm, not both")
        }
        if let passkey { _ = try Self.passkey(passkey) }
    }

    /// A passkey as typed: six decimal digits at most, 0 to 999999.
    static func passkey(_ text: String) throws -> UInt32 {
        guard !text.isEmpty, text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt32(text)
        else {
            throw ValidationError(
                "--passkey takes the six digits the device shows, 0 to 999999, not \(text.debugDescription); "
                    + "for example --passkey 123456")
        }
        return value
    }

    /// What `pair` reports.
    struct Report: Encodable, Sendable {
        var device: String
        /// The method, `nil` when the bond encrypted the link.
        var method: String?
        var level: Int
        var keySize: Int
        var bonded: Bool

        var text: String {
            let how = method.map { "paired by \($0)" } ?? "encrypted with the bond"
            return "\(device): \(how), level \(level), \(keySize)-byte key" + (bonded ? ", bonded" : ", not bonded")
        }
    }

    /// The features and the agent the flags ask for: a keyboard for `--passkey`, yes/no for `--confirm`, neither
    /// (Just Works) otherwise.
    var pairing: (PairingFeatures, PairingAgent) {
        // try?: validate() already refused a passkey that is not six digits.
        if let passkey, let value = try? Self.passkey(passkey) {
            return (PairingFeatures(io: .keyboardOnly, mitm: true), .entering(value))
        }
        if confirm {
            return (
                PairingFeatures(io: .displayYesNo, mitm: true),
                PairingAgent(enterPasskey: { _ in nil }, confirmNumber: { _ in true })
            )
        }
        return (PairingFeatures(io: .noInputNoOutput), .refusing)
    }

    func run() async throws {
        let (features, agent) = pairing
        let report = try await ConnectingCommand.withConnection(central, to: .id(try DeviceQuery(parsing: id))) {
            _, connection in
            let result = try await connection.pair(features: features, agent: agent)
            return Report(
                device: connection.device.description, method: result.method?.description,
                level: result.level.rawValue, keySize: result.keySize, bonded: result.bonded)
        }
        print(central.global.json ? Output.json(report) : report.text)
    }
}
