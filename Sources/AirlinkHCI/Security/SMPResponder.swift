import AirlinkCore

/// The Security Manager of a simulated peripheral behind the HCI controller, as the responder of LE legacy
/// pairing with Just Works (Core Spec Vol 3, Part H, 2.3.5.2 and 3.5): a synchronous state machine, SMP PDUs in,
/// SMP PDUs and key decisions out. The host's SMP (Linux's, Bumble's) is the initiator.
///
/// The peripheral answers every Pairing Request with NoInputNoOutput, no OOB data, no MITM, no Secure Connections,
/// bonding when asked, and distributes its LTK (Encryption Information, Central Identification) when the
/// initiator asks for it. Secure Connections, passkeys and numeric comparison are not served over HCI.
struct SMPResponder: Sendable {
    /// What the controller must do.
    enum Output: Sendable, Equatable {
        /// Send this SMP PDU to the host.
        case send([UInt8])
        /// The short-term key is ready: the host may encrypt with it (LE Enable Encryption, Rand and EDIV zero).
        case shortTermKey([UInt8], keySize: Int, bonding: Bool)
        /// Pairing failed with a reason (3.5.5), sent to the host.
        case failed(reason: UInt8)
    }

    enum Opcode {
        static let pairingRequest: UInt8 = 0x01
        static let pairingResponse: UInt8 = 0x02
        static let pairingConfirm: UInt8 = 0x03
        static let pairingRandom: UInt8 = 0x04
        static let pairingFailed: UInt8 = 0x05
        static let encryptionInformation: UInt8 = 0x06
        static let centralIdentification: UInt8 = 0x07
    }

    enum Reason {
        static let confirmValueFailed: UInt8 = 0x04
        static let pairingNotSupported: UInt8 = 0x05
        static let encryptionKeySize: UInt8 = 0x06
        static let commandNotSupported: UInt8 = 0x07
        static let unspecified: UInt8 = 0x08
        static let invalidParameters: UInt8 = 0x0A
    }

    private enum Phase: Sendable {
        case idle
        case responded(request: [UInt8], response: [UInt8])
        case confirmed(request: [UInt8], response: [UInt8], initiatorConfirm: [UInt8], random: [UInt8])
        case keyed
    }

    /// The initiator's address (HCI order) and type: the controller's own.
    let initiator: (address: [UInt8], type: UInt8)
    /// The responder's address (HCI order) and type: the peripheral's.
    let responder: (address: [UInt8], type: UInt8)
    private var phase = Phase.idle

    init(initiator: (address: [UInt8], type: UInt8), responder: (address: [UInt8], type: UInt8)) {
        self.initiator = initiator
        self.responder = responder
    }

    /// Handles a PDU from the host; `random` gives 16 random octets when the responder needs Srand.
    mutating func handle(_ pdu: [UInt8], random: () -> [UInt8]) -> [Output] {
        guard let opcode = pdu.first else { return fail(Reason.invalidParameters) }
        switch (opcode, phase) {
        case (Opcode.pairingRequest, _):
            guard pdu.count == 7, (7...16).contains(pdu[4]) else { return fail(Reason.invalidParameters) }
            let bonding = pdu[3] & 0x03 == 0x01
            // NoInputNoOutput, no OOB, bonding as asked (no MITM, no SC), key size 16, no initiator keys, the LTK
            // when the initiator asks for the responder's encryption key.
            let response: [UInt8] = [
                Opcode.pairingResponse, 0x03, 0x00, bonding ? 0x01 : 0x00, 16, 0x00, bonding ? pdu[6] & 0x01 : 0x00,
            ]
            phase = .responded(request: pdu, response: response)
            return [.send(response)]
        case (Opcode.pairingConfirm, .responded(let request, let response)):
            guard pdu.count == 17 else { return fail(Reason.invalidParameters) }
            let srand = random()
            phase = .confirmed(
                request: request, response: response, initiatorConfirm: Array(pdu[1...]), random: srand)
            let confirm = LegacyPairingCrypto.c1(
                key: Self.justWorksKey, random: srand, request: request, response: response, initiator: initiator,
                responder: responder)
            return [.send([Opcode.pairingConfirm] + confirm)]
        case (Opcode.pairingRandom, .confirmed(let request, let response, let initiatorConfirm, let srand)):
            guard pdu.count == 17 else { return fail(Reason.invalidParameters) }
            let mrand = Array(pdu[1...])
            let expected = LegacyPairingCrypto.c1(
                key: Self.justWorksKey, random: mrand, request: request, response: response, initiator: initiator,
                responder: responder)
            guard expected == initiatorConfirm else { return fail(Reason.confirmValueFailed) }
            phase = .keyed
            let keySize = Int(min(request[4], response[4]))
            let stk = LegacyPairingCrypto.shortened(
                LegacyPairingCrypto.s1(key: Self.justWorksKey, responderRandom: srand, initiatorRandom: mrand),
                to: keySize)
            let bonding = request[3] & 0x03 == 0x01
            return [.send([Opcode.pairingRandom] + srand), .shortTermKey(stk, keySize: keySize, bonding: bonding)]
        case (Opcode.pairingFailed, _):
            phase = .idle
            return []
        case (Opcode.pairingConfirm, _), (Opcode.pairingRandom, _):
            // Out of turn (3.5.5: Unspecified Reason ends the pairing).
            return fail(Reason.unspecified)
        default:
            // Keys the initiator distributes (its IRK, its identity address) are taken and not used; every other
            // command, Secure Connections' public keys among them, is not supported.
            return (0x06...0x0A).contains(opcode) ? [] : fail(Reason.commandNotSupported)
        }
    }

    /// The keys the responder distributes after encryption with the STK: Encryption Information (the LTK) and
    /// Central Identification (EDIV, Rand), 3.6.
    static func keyDistribution(ltk: [UInt8], ediv: UInt16, rand: [UInt8]) -> [[UInt8]] {
        [
            [Opcode.encryptionInformation] + ltk,
            [Opcode.centralIdentification, UInt8(ediv & 0xFF), UInt8(ediv >> 8)] + rand,
        ]
    }

    /// Just Works' temporary key: zero (2.3.5.2).
    static let justWorksKey = [UInt8](repeating: 0, count: 16)

    private mutating func fail(_ reason: UInt8) -> [Output] {
        phase = .idle
        return [.send([Opcode.pairingFailed, reason]), .failed(reason: reason)]
    }
}
