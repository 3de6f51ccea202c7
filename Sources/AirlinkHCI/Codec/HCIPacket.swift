import AirlinkCore

/// One HCI packet as H4 (the UART transport layer, Core Spec Vol 4, Part A) carries it: an indicator
/// byte, then the packet.
public enum HCIPacket: Hashable, Sendable {
    /// A command from the host (indicator 0x01).
    case command(HCICommand)
    /// ACL data, either way (indicator 0x02).
    case acl(HCIACLPacket)
    /// An event from the controller (indicator 0x04).
    case event(HCIEvent)

    /// The H4 indicator byte of each kind.
    public enum Indicator: UInt8, Sendable {
        /// HCI Command packet.
        case command = 0x01
        /// HCI ACL Data packet.
        case acl = 0x02
        /// HCI Synchronous Data packet (not supported).
        case sco = 0x03
        /// HCI Event packet.
        case event = 0x04
        /// HCI ISO Data packet (not supported).
        case iso = 0x05
    }

    /// The packet's bytes without the indicator.
    public var bytes: [UInt8] {
        switch self {
        case .command(let command): command.encoded
        case .acl(let packet): packet.encoded
        case .event(let event): event.encoded
        }
    }

    /// The packet's indicator.
    public var indicator: Indicator {
        switch self {
        case .command: .command
        case .acl: .acl
        case .event: .event
        }
    }

    /// The packet as H4 carries it: indicator, then the packet.
    public var h4: [UInt8] { [indicator.rawValue] + bytes }

    /// Decodes one whole H4 packet.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData``: an unknown or unsupported indicator, a length
    ///   that disagrees with the bytes.
    public init(h4 bytes: [UInt8]) throws(AirlinkError) {
        guard let first = bytes.first else { throw AirlinkError(.malformedData, "H4 packet is empty") }
        let body = Array(bytes.dropFirst())
        switch Indicator(rawValue: first) {
        case .command: self = .command(try HCICommand(decoding: body))
        case .acl: self = .acl(try HCIACLPacket(decoding: body))
        case .event: self = .event(try HCIEvent(decoding: body))
        case .sco, .iso, nil:
            throw AirlinkError(
                .malformedData,
                "H4 packet indicator 0x\(String(first, radix: 16)) is not one this controller takes "
                    + "(0x01 command, 0x02 ACL data, 0x04 event)")
        }
    }
}

/// An HCI command: an opcode and its parameters (Core Spec Vol 4, Part E, 5.4.1).
public struct HCICommand: Hashable, Sendable {
    /// What the command is.
    public var opcode: HCIOpcode
    /// Its parameters, at most 255 bytes.
    public var parameters: [UInt8]

    /// Creates a command.
    public init(_ opcode: HCIOpcode, _ parameters: [UInt8] = []) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// The packet's bytes: opcode, parameter length, parameters.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLittle16(opcode.rawValue)
        bytes.append(UInt8(truncatingIfNeeded: parameters.count))
        return bytes + parameters
    }

    /// Decodes a command packet (without its H4 indicator).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` when the header is short or the length disagrees.
    public init(decoding bytes: [UInt8]) throws(AirlinkError) {
        var reader = HCIByteReader(bytes, "HCI command")
        opcode = HCIOpcode(rawValue: try reader.uint16("opcode"))
        let length = Int(try reader.uint8("parameter total length"))
        parameters = try reader.bytes(length, "parameters")
        try reader.expectEnd()
    }
}

/// An HCI event: a code and its parameters (Core Spec Vol 4, Part E, 5.4.4).
public struct HCIEvent: Hashable, Sendable {
    /// The event code (0x3E for LE Meta events).
    public var code: UInt8
    /// Its parameters, at most 255 bytes.
    public var parameters: [UInt8]

    /// Creates an event.
    public init(code: UInt8, parameters: [UInt8]) {
        self.code = code
        self.parameters = parameters
    }

    /// The packet's bytes: code, parameter length, parameters.
    public var encoded: [UInt8] { [code, UInt8(truncatingIfNeeded: parameters.count)] + parameters }

    /// Decodes an event packet (without its H4 indicator).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` when the header is short or the length disagrees.
    public init(decoding bytes: [UInt8]) throws(AirlinkError) {
        var reader = HCIByteReader(bytes, "HCI event")
        code = try reader.uint8("event code")
        let length = Int(try reader.uint8("parameter total length"))
        parameters = try reader.bytes(length, "parameters")
        try reader.expectEnd()
    }
}
