import Airlink
import AirlinkCore
import ArgumentParser

/// One `--protect NAME[:authenticated]` of `airlink inspect`: the value centrals read and write only over an
/// encrypted link (`NAME`, or `NAME:encrypted`) or one with an authenticated key (`NAME:authenticated`).
struct ProtectArgument: Equatable {
    var identifier: String
    /// `.encryptionRequired` or `.authenticationRequired`.
    var option: InspectionOptions

    /// Parses `text` and checks it names one of `identifiers`.
    init(parsing text: String, among identifiers: [String]) throws {
        var name = Substring(text)
        option = .encryptionRequired
        if let colon = text.lastIndex(of: ":") {
            name = text[..<colon]
            switch text[text.index(after: colon)...] {
            case "encrypted": option = .encryptionRequired
            case "authenticated": option = .authenticationRequired
            case let other:
                throw ValidationError(
                    "--protect \(text): \"\(other)\" is not a protection; write \(name) (encrypted) or "
                        + "\(name):authenticated")
            }
        }
        guard identifiers.contains(String(name)) else {
            throw ValidationError(
                "--protect \(text): no value \"\(name)\" is published; protect one of "
                    + identifiers.joined(separator: ", "))
        }
        identifier = String(name)
    }

    /// The protection of each identifier `texts` name (the last wins for one named twice).
    static func protections(_ texts: [String], among identifiers: [String]) throws -> [String: InspectionOptions] {
        var protections: [String: InspectionOptions] = [:]
        for text in texts {
            let argument = try ProtectArgument(parsing: text, among: identifiers)
            protections[argument.identifier] = argument.option
        }
        return protections
    }

    /// How an inspector protecting these values pairs: a display and MITM when one needs an authenticated key
    /// (the central's user types the passkey it shows), else Just Works; `show` prints what the inspector's user
    /// sees.
    static func security(for protections: [String: InspectionOptions], show: @escaping @Sendable (String) -> Void)
        -> PeripheralRoleSecurity
    {
        guard protections.values.contains(.authenticationRequired) else { return PeripheralRoleSecurity() }
        return PeripheralRoleSecurity(
            features: PairingFeatures(io: .displayOnly, mitm: true),
            agent: PairingAgent(
                enterPasskey: { _ in nil }, displayPasskey: { show("inspector displays passkey \($0)") },
                confirmNumber: { _ in false }))
    }
}

extension InspectCommand {
    /// What the inspector's side prints of a pairing event: `a central asks to pair: just works`.
    static func pairingLine(_ event: PeripheralEvent) -> String {
        switch event {
        case .pairingRequested(let central, let method): "a central asks to pair: \(method) (\(central))"
        case .paired(let central, let result):
            "paired with \(central): "
                + (result.method.map { "\($0), " } ?? "with the bond, ") + "\(result)"
        case .pairingFailed(let central, let reason):
            "pairing with \(central) failed" + (reason.map { ": \($0)" } ?? "")
        default: "\(event)"
        }
    }
}
