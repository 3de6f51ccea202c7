/// What the controller answers on the fixed channels it does not serve: it refuses, as the specification
/// lets a device refuse, rather than stay silent.
public enum L2CAPRefusals {
    /// The answer to an LE signalling packet (Core Spec Vol 3, Part A, 4): Command Reject, "Command not
    /// understood" (0x0000), for every request; nothing for a Command Reject or a response (odd codes from
    /// 0x13 on, the responses to what a central may be asked), which need no answer. A packet too short to
    /// hold a command header is rejected with identifier 0.
    public static func signalling(_ payload: [UInt8]) -> [UInt8]? {
        guard payload.count >= 4 else { return commandReject(identifier: 0) }
        let code = payload[0]
        let responses: Set<UInt8> = [0x01, 0x13, 0x15, 0x18, 0x06]
        guard !responses.contains(code) else { return nil }
        return commandReject(identifier: payload[1])
    }

    private static func commandReject(identifier: UInt8) -> [UInt8] {
        [0x01, identifier, 0x02, 0x00, 0x00, 0x00]
    }
}
