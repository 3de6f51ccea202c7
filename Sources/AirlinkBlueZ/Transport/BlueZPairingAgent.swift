import AirlinkCore

/// The `org.bluez.Agent1` Airlink exports for one pairing (BlueZ doc/agent-api.rst): bluetoothd asks the agent of
/// the client that called `Device1.Pair` for passkeys and confirmations, and this one answers with the app's
/// ``/AirlinkCore/PairingAgent``. Answers are synchronous, on the connection's loop, as the app's closures are.
struct BlueZPairingAgent: Sendable {
    static let interface = "org.bluez.Agent1"
    static let rejected = "org.bluez.Error.Rejected"
    static let canceled = "org.bluez.Error.Canceled"

    /// The object path it is exported at.
    let path: String
    let agent: PairingAgent

    /// BlueZ's name of an IO capability, as `RegisterAgent` takes it.
    static func capability(_ io: IOCapability) -> String {
        switch io {
        case .displayOnly: "DisplayOnly"
        case .displayYesNo: "DisplayYesNo"
        case .keyboardOnly: "KeyboardOnly"
        case .noInputNoOutput: "NoInputNoOutput"
        case .keyboardDisplay: "KeyboardDisplay"
        }
    }

    /// Answers one call of bluetoothd: a passkey typed (`Canceled` when the user cancelled, `Rejected` for a
    /// passkey over six digits), a comparison confirmed (`Rejected` when not), a passkey displayed; PIN codes (BR/EDR)
    /// are rejected; authorizations accepted (the app asked to pair).
    func handle(_ message: DBusMessage) -> DBusMethodReply {
        guard message.interface == Self.interface, let member = message.member else {
            return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no such method")
        }
        let arguments: [DBusValue]
        switch message.callArguments {
        case .success(let read): arguments = read
        case .failure(let error): return .unreadableArguments(error)
        }
        switch member {
        case "RequestPasskey":
            guard let passkey = agent.enterPasskey(nil) else {
                return .error(name: Self.canceled, message: "the user cancelled passkey entry")
            }
            guard passkey <= 999_999 else {
                return .error(name: Self.rejected, message: "passkey \(passkey) is not six digits")
            }
            return .values([.uint32(passkey)])
        case "DisplayPasskey":
            if arguments.count >= 2, let passkey = arguments[1].integer { agent.displayPasskey(UInt32(passkey)) }
            return .values([])
        case "RequestConfirmation":
            guard arguments.count >= 2, let number = arguments[1].integer, agent.confirmNumber(UInt32(number)) else {
                return .error(name: Self.rejected, message: "the user said the numbers differ")
            }
            return .values([])
        case "RequestPinCode", "DisplayPinCode":
            return .error(name: Self.rejected, message: "Airlink pairs LE devices only")
        case "RequestAuthorization", "AuthorizeService", "Release", "Cancel":
            return .values([])
        default:
            return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(member)")
        }
    }
}
