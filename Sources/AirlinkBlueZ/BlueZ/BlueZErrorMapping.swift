import AirlinkCore

/// What Airlink was doing when BlueZ or the bus failed: the same D-Bus error means different
/// things in different operations (`org.bluez.Error.Failed` is a refused connection during
/// `Connect`, an unknown failure elsewhere).
package enum BlueZOperation: Sendable, Hashable, CustomStringConvertible {
    /// Device1.Connect.
    case connect
    /// Device1.Disconnect.
    case disconnect
    /// Adapter1 discovery (SetDiscoveryFilter, StartDiscovery, StopDiscovery).
    case scan
    /// A GATT call (ReadValue, WriteValue, StartNotify, StopNotify) on an attribute.
    case gatt(ATTHandle?)
    /// Device1.Pair.
    case pair
    /// Reading the object tree or adapter properties.
    case objects
    /// Anything else.
    case other

    /// `connect`, `read 0x000B` ...
    package var description: String {
        switch self {
        case .connect: "connect"
        case .disconnect: "disconnect"
        case .pair: "pairing"
        case .scan: "scan"
        case .gatt(let handle): handle.map { "GATT operation on \($0)" } ?? "GATT operation"
        case .objects: "reading BlueZ's objects"
        case .other: "BlueZ call"
        }
    }

    var isGATT: Bool {
        if case .gatt = self { return true }
        return false
    }
}

/// Translates BlueZ's D-Bus errors into ``/AirlinkCore/AirlinkError``: the one table of the BlueZ backend.
///
/// Every `org.bluez.Error.*` keeps its D-Bus name and text as the cause
/// (``/AirlinkCore/AirlinkError/Cause/bluez(name:message:)``), except where BlueZ reports an ATT error:
/// `Operation failed with ATT error: 0x0e` and the texts of BlueZ's `create_gatt_dbus_error` ("Read not permitted",
/// "Not paired" ...) become ``/AirlinkCore/AirlinkError/Code/attribute`` with
/// ``/AirlinkCore/AirlinkError/Cause/att(_:handle:)``, the D-Bus name and text kept in the message. Listed in
/// Docs/ErrorCatalogue.md.
package enum BlueZErrorMapping {
    /// What a rule turns an error into.
    package enum Outcome: Sendable, Hashable {
        /// An Airlink code, with advice appended to the message.
        case code(AirlinkError.Code, advice: String)
        /// An ATT error the peer answered with.
        case att(ATTError)
    }

    /// One row of the table: a D-Bus error name, optionally a text it must contain (case-insensitive)
    /// and the operations it applies to (`nil`: all).
    package struct Rule: Sendable {
        package var name: String
        package var text: String?
        package var gattOnly: Bool
        package var connectOnly: Bool
        package var pairOnly = false
        package var outcome: Outcome
    }

    private static func rule(
        _ name: String, containing text: String? = nil, gattOnly: Bool = false, connectOnly: Bool = false,
        pairOnly: Bool = false, _ outcome: Outcome
    ) -> Rule {
        Rule(
            name: name, text: text, gattOnly: gattOnly, connectOnly: connectOnly, pairOnly: pairOnly,
            outcome: outcome)
    }

    private static let bluez = "org.bluez.Error."
    private static let dbus = "org.freedesktop.DBus.Error."
    private static let startBluetooth =
        "install bluez and start bluetoothd (`sudo systemctl start bluetooth`); see Docs/RealAdapter.md"

    /// The table, first match wins. ATT texts come from BlueZ's `create_gatt_dbus_error` (src/gatt-client.c).
    package static let rules: [Rule] = [
        rule(bluez + "NotPermitted", containing: "Read not permitted", .att(.readNotPermitted)),
        rule(bluez + "NotPermitted", containing: "Write not permitted", .att(.writeNotPermitted)),
        rule(bluez + "NotPermitted", containing: "Not paired", .att(.insufficientAuthentication)),
        rule(bluez + "NotPaired", .att(.insufficientAuthentication)),
        rule(bluez + "InvalidArguments", containing: "Invalid offset", .att(.invalidOffset)),
        rule(bluez + "InvalidArguments", containing: "Invalid Length", .att(.invalidAttributeValueLength)),
        rule(bluez + "NotAuthorized", gattOnly: true, .att(.insufficientAuthorization)),
        rule(
            bluez + "NotSupported", gattOnly: true,
            .code(.operationNotSupported, advice: "the characteristic's properties do not allow this operation")),
        rule(bluez + "InProgress", .code(.operationInProgress, advice: "wait for the operation under way, then retry")),
        rule(
            bluez + "Failed", containing: "le-connection-abort-by-local",
            .code(
                .connectionFailed,
                advice: "the controller aborted the attempt; this is usually transient, retry "
                    + "(stopping a running scan first helps on some adapters)")),
        rule(
            bluez + "Failed", connectOnly: true,
            .code(.connectionFailed, advice: "check the device is in range and advertising, then retry")),
        rule(bluez + "Failed", containing: "Not connected", .code(.notConnected, advice: "connect first")),
        rule(bluez + "NotConnected", .code(.notConnected, advice: "connect first")),
        rule(bluez + "NotReady", .code(.adapterPoweredOff, advice: "power the adapter on: `bluetoothctl power on`")),
        rule(
            bluez + "DoesNotExist",
            .code(.deviceNotFound, advice: "BlueZ does not know the device; scan so that it sees it advertise")),
        rule(bluez + "AlreadyConnected", .code(.connectionFailed, advice: "the device is already connected")),
        rule(bluez + "AlreadyExists", .code(.invalidArgument, advice: "it exists already")),
        rule(bluez + "InvalidArguments", .code(.invalidArgument, advice: "BlueZ rejected an argument")),
        rule(bluez + "NotAvailable", .code(.operationNotSupported, advice: "BlueZ cannot do this now")),
        rule(
            bluez + "NotSupported", .code(.operationNotSupported, advice: "this BlueZ or adapter does not support it")),
        rule(bluez + "NotAuthorized", .code(.connectionFailed, advice: "BlueZ refused: pair or trust the device")),
        rule(
            bluez + "AuthenticationFailed", pairOnly: true,
            .code(.pairingFailed, advice: "the devices could not authenticate (a wrong passkey?); pair again")),
        rule(
            bluez + "AuthenticationCanceled", pairOnly: true,
            .code(.pairingFailed, advice: "the agent or the device cancelled; pair again and answer the request")),
        rule(
            bluez + "AuthenticationRejected", pairOnly: true,
            .code(.pairingFailed, advice: "the device or the agent rejected pairing")),
        rule(
            bluez + "AuthenticationTimeout", pairOnly: true,
            .code(.timeout, advice: "nobody answered in time (SMP's 30 s); pair again and answer the request")),
        rule(
            bluez + "ConnectionAttemptFailed", pairOnly: true,
            .code(.linkLost, advice: "the link failed while pairing; connect again, then pair")),
        rule(bluez + "AuthenticationFailed", .code(.connectionFailed, advice: "pairing failed; pair again")),
        rule(bluez + "AuthenticationCanceled", .code(.connectionFailed, advice: "pairing was cancelled")),
        rule(bluez + "AuthenticationRejected", .code(.connectionFailed, advice: "the device rejected pairing")),
        rule(bluez + "AuthenticationTimeout", .code(.connectionFailed, advice: "pairing timed out; retry")),
        rule(bluez + "ConnectionAttemptFailed", .code(.connectionFailed, advice: "retry")),
        rule(
            bluez + "AgentNotAvailable",
            .code(.connectionFailed, advice: "no pairing agent: run `bluetoothctl agent on` or pair first")),
        rule(bluez + "NoSuchAdapter", .code(.transportUnavailable, advice: "check `bluetoothctl list`")),
        rule(dbus + "ServiceUnknown", .code(.transportUnavailable, advice: "BlueZ is not running: " + startBluetooth)),
        rule(dbus + "NameHasNoOwner", .code(.transportUnavailable, advice: "BlueZ is not running: " + startBluetooth)),
        rule(
            dbus + "UnknownObject", gattOnly: true,
            .code(
                .characteristicNotFound,
                advice: "BlueZ no longer has this attribute (its services changed?); discover services again")),
        rule(dbus + "UnknownObject", connectOnly: true, .code(.deviceNotFound, advice: "scan so that BlueZ sees it")),
        rule(dbus + "UnknownObject", .code(.transportUnavailable, advice: "the object is gone from BlueZ")),
        rule(dbus + "UnknownMethod", .code(.operationNotSupported, advice: "this BlueZ lacks the method; update it")),
        rule(dbus + "UnknownInterface", .code(.operationNotSupported, advice: "this BlueZ lacks the interface")),
        rule(dbus + "NoReply", .code(.timeout, advice: "BlueZ did not answer; retry")),
        rule(dbus + "Timeout", .code(.timeout, advice: "BlueZ did not answer; retry")),
        rule(dbus + "TimedOut", .code(.timeout, advice: "BlueZ did not answer; retry")),
        rule(
            dbus + "AccessDenied",
            .code(
                .transportUnavailable,
                advice: "the D-Bus policy forbids this user to talk to BlueZ: add the user to the `bluetooth` group "
                    + "(see Docs/RealAdapter.md)")),
        rule(dbus + "InvalidArgs", .code(.invalidArgument, advice: "BlueZ rejected an argument")),
    ]

    /// Reads the ATT error from a text such as `Operation failed with ATT error: 0x0e`.
    package static func attError(inText text: String) -> ATTError? {
        guard let range = text.firstRange(of: "ATT error: 0x") else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isHexDigit }
        guard (1...2).contains(digits.count), let value = UInt8(digits, radix: 16) else { return nil }
        return ATTError(value)
    }

    /// Translates a D-Bus layer error.
    ///
    /// - Parameters:
    ///   - error: the error.
    ///   - operation: what was being done.
    ///   - context: where, for the error's context (`read 0x000B on C0:FF:EE:00:00:01`).
    package static func map(_ error: DBusError, operation: BlueZOperation, context: String) -> AirlinkError {
        switch error {
        case .remote(let name, let text):
            return mapRemote(name: name, text: text, operation: operation, context: context)
        case .timeout(let member, let after):
            return AirlinkError(
                .timeout, "BlueZ did not answer \(member) within \(after.text)", cause: .other(error.description),
                context: context)
        case .disconnected(let reason):
            if operation.isGATT {
                return AirlinkError(
                    .linkLost, "the D-Bus connection to BlueZ was lost (\(reason)); the link is gone",
                    cause: .other(error.description), context: context)
            }
            return AirlinkError(
                .transportUnavailable, "the D-Bus connection to BlueZ was lost (\(reason)); open the transport again",
                cause: .other(error.description), context: context)
        case .unexpectedSignature, .malformed:
            return AirlinkError(
                .malformedData, "BlueZ answered with data Airlink cannot read: \(error)",
                cause: .other(error.description),
                context: context)
        case .invalidArgument(let what):
            return AirlinkError(.invalidArgument, what, context: context)
        case .connectionFailed(let address, let name, let text):
            return AirlinkError(
                .transportUnavailable,
                "cannot reach the D-Bus bus at \(address): is dbus running? (`systemctl status dbus`)",
                cause: .other("\(name): \(text)"), context: context)
        case .cancelled:
            return AirlinkError(.cancelled, "the \(operation) was cancelled", context: context)
        }
    }

    private static func mapRemote(name: String, text: String, operation: BlueZOperation, context: String)
        -> AirlinkError
    {
        let handle: ATTHandle? = if case .gatt(let handle) = operation { handle } else { nil }
        let said = text.isEmpty ? name : "\(name): \(text)"
        if name.hasPrefix("org.bluez.Error"), let att = attError(inText: text) {
            return AirlinkError(
                .attribute, "the device answered with ATT error \(att) (BlueZ said \(said))",
                cause: .att(att, handle: handle),
                context: context)
        }
        for rule in rules where rule.name == name {
            if rule.gattOnly && !operation.isGATT { continue }
            if rule.connectOnly && operation != .connect { continue }
            if rule.pairOnly && operation != .pair { continue }
            if let needle = rule.text, !text.lowercased().contains(needle.lowercased()) { continue }
            switch rule.outcome {
            case .att(let att):
                return AirlinkError(
                    .attribute, "the device answered with ATT error \(att) (BlueZ said \(said))",
                    cause: .att(att, handle: handle), context: context)
            case .code(let code, let advice):
                return AirlinkError(
                    code, "BlueZ refused the \(operation) (\(said)): \(advice)",
                    cause: .bluez(name: name, message: text),
                    context: context)
            }
        }
        return AirlinkError(
            .internalError,
            "BlueZ failed the \(operation) with an error Airlink does not recognise (\(said)); "
                + "if it persists, report it",
            cause: .bluez(name: name, message: text), context: context)
    }
}
