import AirlinkCore
import Testing

@testable import AirlinkBlueZ

/// The BlueZ error table, row by row.
struct BlueZErrorMappingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var operation: BlueZOperation
        var code: AirlinkError.Code
        var att: ATTError?
        var testDescription: String { "\(name): \(text) during \(operation)" }
    }

    static let handle = ATTHandle(0x000C)
    static let gatt = BlueZOperation.gatt(handle)
    static let rows: [Row] = [
        Row(
            name: "org.bluez.Error.Failed", text: "Operation failed with ATT error: 0x0e", operation: gatt,
            code: .attribute, att: .unlikelyError),
        Row(
            name: "org.bluez.Error", text: "Operation failed with ATT error: 0x80", operation: gatt, code: .attribute,
            att: ATTError(0x80)),
        Row(
            name: "org.bluez.Error.Failed", text: "Operation failed with ATT error: 0x12", operation: gatt,
            code: .attribute, att: .databaseOutOfSync),
        Row(
            name: "org.bluez.Error.NotPermitted", text: "Read not permitted", operation: gatt, code: .attribute,
            att: .readNotPermitted),
        Row(
            name: "org.bluez.Error.NotPermitted", text: "Write not permitted", operation: gatt, code: .attribute,
            att: .writeNotPermitted),
        Row(
            name: "org.bluez.Error.NotPermitted", text: "Not paired", operation: gatt, code: .attribute,
            att: .insufficientAuthentication),
        Row(
            name: "org.bluez.Error.NotPaired", text: "Not Paired", operation: gatt, code: .attribute,
            att: .insufficientAuthentication),
        Row(
            name: "org.bluez.Error.InvalidArguments", text: "Invalid offset", operation: gatt, code: .attribute,
            att: .invalidOffset),
        Row(
            name: "org.bluez.Error.InvalidArguments", text: "Invalid Length", operation: gatt, code: .attribute,
            att: .invalidAttributeValueLength),
        Row(
            name: "org.bluez.Error.NotAuthorized", text: "Not Authorized", operation: gatt, code: .attribute,
            att: .insufficientAuthorization),
        Row(
            name: "org.bluez.Error.NotSupported", text: "Operation is not supported", operation: gatt,
            code: .operationNotSupported),
        Row(name: "org.bluez.Error.InProgress", text: "In Progress", operation: .connect, code: .operationInProgress),
        Row(
            name: "org.bluez.Error.InProgress", text: "Operation already in progress", operation: .scan,
            code: .operationInProgress),
        Row(
            name: "org.bluez.Error.Failed", text: "le-connection-abort-by-local", operation: .connect,
            code: .connectionFailed),
        Row(
            name: "org.bluez.Error.Failed", text: "Software caused connection abort", operation: .connect,
            code: .connectionFailed),
        Row(name: "org.bluez.Error.Failed", text: "Not connected", operation: gatt, code: .notConnected),
        Row(name: "org.bluez.Error.NotConnected", text: "Not Connected", operation: gatt, code: .notConnected),
        Row(name: "org.bluez.Error.NotReady", text: "Resource Not Ready", operation: .scan, code: .adapterPoweredOff),
        Row(name: "org.bluez.Error.DoesNotExist", text: "Does Not Exist", operation: .other, code: .deviceNotFound),
        Row(
            name: "org.bluez.Error.AlreadyConnected", text: "Already Connected", operation: .connect,
            code: .connectionFailed),
        Row(name: "org.bluez.Error.AlreadyExists", text: "Already Exists", operation: .other, code: .invalidArgument),
        Row(
            name: "org.bluez.Error.InvalidArguments", text: "Invalid arguments in method call", operation: .scan,
            code: .invalidArgument),
        Row(
            name: "org.bluez.Error.NotAvailable", text: "Operation currently not available", operation: .other,
            code: .operationNotSupported),
        Row(
            name: "org.bluez.Error.NotSupported", text: "Operation is not supported", operation: .scan,
            code: .operationNotSupported),
        Row(
            name: "org.bluez.Error.NotAuthorized", text: "Not Authorized", operation: .connect,
            code: .connectionFailed),
        Row(
            name: "org.bluez.Error.AuthenticationFailed", text: "Authentication Failed", operation: .connect,
            code: .connectionFailed),
        Row(
            name: "org.bluez.Error.AuthenticationCanceled", text: "Authentication Canceled", operation: .connect,
            code: .connectionFailed),
        Row(
            name: "org.bluez.Error.AuthenticationRejected", text: "Authentication Rejected", operation: .connect,
            code: .connectionFailed),
        Row(
            name: "org.bluez.Error.AuthenticationTimeout", text: "Authentication Timeout", operation: .connect,
            code: .connectionFailed),
        Row(
            name: "org.bluez.Error.ConnectionAttemptFailed", text: "Page Timeout", operation: .connect,
            code: .connectionFailed),
        Row(
            name: "org.bluez.Error.AgentNotAvailable", text: "Agent Not Available", operation: .connect,
            code: .connectionFailed),
        Row(
            name: "org.bluez.Error.NoSuchAdapter", text: "No such adapter", operation: .other,
            code: .transportUnavailable),
        Row(name: "org.bluez.Error.Failed", text: "No discovery started", operation: .scan, code: .internalError),
        Row(name: "org.bluez.Error.Unheard", text: "never seen", operation: .other, code: .internalError),
        Row(
            name: "org.freedesktop.DBus.Error.ServiceUnknown", text: "The name org.bluez was not provided",
            operation: .objects, code: .transportUnavailable),
        Row(
            name: "org.freedesktop.DBus.Error.NameHasNoOwner", text: "", operation: .objects,
            code: .transportUnavailable),
        Row(name: "org.freedesktop.DBus.Error.UnknownObject", text: "", operation: gatt, code: .characteristicNotFound),
        Row(name: "org.freedesktop.DBus.Error.UnknownObject", text: "", operation: .connect, code: .deviceNotFound),
        Row(
            name: "org.freedesktop.DBus.Error.UnknownMethod", text: "", operation: .other,
            code: .operationNotSupported),
        Row(name: "org.freedesktop.DBus.Error.NoReply", text: "", operation: gatt, code: .timeout),
        Row(
            name: "org.freedesktop.DBus.Error.AccessDenied", text: "Rejected send message", operation: .objects,
            code: .transportUnavailable),
        Row(name: "org.freedesktop.DBus.Error.InvalidArgs", text: "", operation: .other, code: .invalidArgument),
    ]

    @Test(arguments: rows)
    func mapsEachBlueZError(row: Row) {
        // Given BlueZ's error, when it is mapped
        let error = BlueZErrorMapping.map(
            .remote(name: row.name, message: row.text), operation: row.operation, context: "ctx")

        // Then the code is the table's, the cause keeps name and text (or the ATT error and handle),
        // and the message quotes BlueZ
        #expect(error.code == row.code)
        if let att = row.att {
            #expect(error.cause == .att(att, handle: Self.handle))
        } else {
            #expect(error.cause == .bluez(name: row.name, message: row.text))
        }
        #expect(error.message.contains(row.name))
        #expect(error.context == "ctx")
    }

    @Test(arguments: [
        ("Operation failed with ATT error: 0x0e", ATTError?.some(.unlikelyError)),
        ("Operation failed with ATT error: 0x1", .some(.invalidHandle)),
        ("Operation failed with ATT error: 0xff", .some(.outOfRange)),
        ("Operation failed with ATT error: 0x", nil), ("Operation failed", nil), ("ATT error: 0x123", nil),
    ])
    func readsTheATTErrorFromBlueZText(text: String, expected: ATTError?) {
        #expect(BlueZErrorMapping.attError(inText: text) == expected)
    }

    @Test func localFailuresMapByKind() {
        // Given failures of the D-Bus layer itself, then each has its code
        #expect(
            BlueZErrorMapping.map(.timeout(member: "ReadValue", after: .seconds(1)), operation: Self.gatt, context: "")
                .code == .timeout)
        #expect(BlueZErrorMapping.map(.disconnected("bye"), operation: Self.gatt, context: "").code == .linkLost)
        #expect(
            BlueZErrorMapping.map(.disconnected("bye"), operation: .connect, context: "").code == .transportUnavailable)
        #expect(
            BlueZErrorMapping.map(
                .unexpectedSignature(expected: "ay", actual: "s", context: "x"), operation: Self.gatt, context: ""
            )
            .code == .malformedData)
        #expect(BlueZErrorMapping.map(.cancelled, operation: Self.gatt, context: "").code == .cancelled)
        #expect(
            BlueZErrorMapping.map(
                .connectionFailed(address: "a", name: "n", message: "m"), operation: .objects, context: ""
            )
            .code == .transportUnavailable)
    }
}
