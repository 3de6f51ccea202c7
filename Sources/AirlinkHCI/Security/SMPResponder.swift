import AirlinkCore

/// The Security Manager of a simulated peripheral behind the HCI controller, as the responder of Just Works pairing
/// (Core Spec Vol 3, Part H, 2.3.5.2 and 3.5): a synchronous state machine, SMP PDUs in, SMP PDUs and key
/// decisions out. The host's SMP (Linux's, Bumble's) is the initiator.
///
/// The peripheral answers every Pairing Request with NoInputNoOutput, no OOB data, no MITM, bonding when asked, and
/// LE Secure Connections when the initiator asks for it (2.3.5.6.2: P-256 public keys, the confirm and random
/// values, the DHKey checks; the LTK both derive is the bond's, distributed by neither). Otherwise it pairs with LE
/// legacy pairing and distributes its LTK (Encryption Information, Central Identification) when the initiator asks
/// for it. Passkeys and numeric comparison are not served over HCI.
struct SMPResponder: Sendable {
    /// What the controller must do.
    enum Output: Sendable, Equatable {
        /// Send this SMP PDU to the host.
        case send([UInt8])
        /// The short-term key is ready: the host may encrypt with it (LE Enable Encryption, Rand and EDIV zero).
        case shortTermKey([UInt8], keySize: Int, bonding: Bool)
        /// LE Secure Connections derived the long-term key: the host encrypts with it (Rand and EDIV zero), and it is
        /// the bond when bonding, distributed by neither side (2.4.2.1).
        case secureConnectionsKey([UInt8], keySize: Int, bonding: Bool)
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
        static let publicKey: UInt8 = 0x0C
        static let dhKeyCheck: UInt8 = 0x0D
    }

    enum Reason {
        static let confirmValueFailed: UInt8 = 0x04
        static let pairingNotSupported: UInt8 = 0x05
        static let encryptionKeySize: UInt8 = 0x06
        static let commandNotSupported: UInt8 = 0x07
        static let unspecified: UInt8 = 0x08
        static let invalidParameters: UInt8 = 0x0A
        static let dhKeyCheckFailed: UInt8 = 0x0B
    }

    /// AuthReq's Secure Connections flag (3.5.1).
    static let secureConnectionsFlag: UInt8 = 0x08

    private enum Phase: Sendable {
        case idle
        case responded(request: [UInt8], response: [UInt8])
        case confirmed(request: [UInt8], response: [UInt8], initiatorConfirm: [UInt8], random: [UInt8])
        case keyed
        /// Secure Connections: the response sent, the initiator's public key awaited.
        case awaitingPublicKey(request: [UInt8], response: [UInt8])
        /// Secure Connections: keys exchanged and Cb sent (values in the specification's order), Na awaited.
        case awaitingRandom(request: [UInt8], response: [UInt8], nb: [UInt8], dhKey: [UInt8])
        /// Secure Connections: nonces exchanged and keys derived, the initiator's DHKey check awaited.
        case awaitingCheck(request: [UInt8], response: [UInt8], na: [UInt8], nb: [UInt8], macKey: [UInt8], ltk: [UInt8])
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

    /// Handles a PDU from the host; `random(n)` gives `n` random octets when the responder needs some (Srand, Nb,
    /// its private key).
    mutating func handle(_ pdu: [UInt8], random: (Int) -> [UInt8]) -> [Output] {
        guard let opcode = pdu.first else { return fail(Reason.invalidParameters) }
        switch (opcode, phase) {
        case (Opcode.pairingRequest, _):
            guard pdu.count == 7, (7...16).contains(pdu[4]) else { return fail(Reason.invalidParameters) }
            let bonding = pdu[3] & 0x03 == 0x01
            if pdu[3] & Self.secureConnectionsFlag != 0 {
                // NoInputNoOutput, no OOB, bonding as asked, Secure Connections; no keys distributed (the LTK is
                // derived by both; EncKey is ignored under Secure Connections, 3.6.1).
                let response: [UInt8] = [
                    Opcode.pairingResponse, 0x03, 0x00, (bonding ? 0x01 : 0x00) | Self.secureConnectionsFlag, 16,
                    0x00, 0x00,
                ]
                phase = .awaitingPublicKey(request: pdu, response: response)
                return [.send(response)]
            }
            // NoInputNoOutput, no OOB, bonding as asked (no MITM, no SC), key size 16, no initiator keys, the LTK
            // when the initiator asks for the responder's encryption key.
            let response: [UInt8] = [
                Opcode.pairingResponse, 0x03, 0x00, bonding ? 0x01 : 0x00, 16, 0x00, bonding ? pdu[6] & 0x01 : 0x00,
            ]
            phase = .responded(request: pdu, response: response)
            return [.send(response)]
        case (Opcode.pairingConfirm, .responded(let request, let response)):
            guard pdu.count == 17 else { return fail(Reason.invalidParameters) }
            let srand = random(16)
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
        case (Opcode.publicKey, .awaitingPublicKey(let request, let response)):
            return publicKey(pdu, request: request, response: response, random: random)
        case (Opcode.pairingRandom, .awaitingRandom(let request, let response, let nb, let dhKey)):
            guard pdu.count == 17 else { return fail(Reason.invalidParameters) }
            let na = Array(pdu[1...].reversed())
            let keys = SecureConnectionsCrypto.f5(
                dhKey, na, nb, Self.address(initiator), Self.address(responder))
            phase = .awaitingCheck(
                request: request, response: response, na: na, nb: nb, macKey: keys.macKey, ltk: keys.ltk)
            return [.send([Opcode.pairingRandom] + nb.reversed())]
        case (Opcode.dhKeyCheck, .awaitingCheck(let request, let response, let na, let nb, let macKey, let ltk)):
            guard pdu.count == 17 else { return fail(Reason.invalidParameters) }
            let (a, b) = (Self.address(initiator), Self.address(responder))
            let none = [UInt8](repeating: 0, count: 16)  // r: zero for Just Works (2.3.5.6.5)
            let ea = SecureConnectionsCrypto.f6(macKey, na, nb, none, Self.ioCap(request), a, b)
            guard ea == Array(pdu[1...].reversed()) else { return fail(Reason.dhKeyCheckFailed) }
            let eb = SecureConnectionsCrypto.f6(macKey, nb, na, none, Self.ioCap(response), b, a)
            phase = .keyed
            let keySize = Int(min(request[4], response[4]))
            return [
                .send([Opcode.dhKeyCheck] + eb.reversed()),
                .secureConnectionsKey(
                    LegacyPairingCrypto.shortened(ltk.reversed(), to: keySize), keySize: keySize,
                    bonding: request[3] & 0x03 == 0x01),
            ]
        case (Opcode.pairingFailed, _):
            phase = .idle
            return []
        case (Opcode.pairingConfirm, _), (Opcode.pairingRandom, _), (Opcode.publicKey, _), (Opcode.dhKeyCheck, _):
            // Out of turn (3.5.5: Unspecified Reason ends the pairing).
            return fail(Reason.unspecified)
        default:
            // Keys the initiator distributes (its IRK, its identity address) are taken and not used; every other
            // command is not supported.
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

    /// Secure Connections' public key exchange (2.3.5.6.1) and, for Just Works, the responder's confirm value Cb =
    /// f4(PKbx, PKax, Nb, 0) sent right after its key (2.3.5.6.2).
    private mutating func publicKey(
        _ pdu: [UInt8], request: [UInt8], response: [UInt8], random: (Int) -> [UInt8]
    ) -> [Output] {
        guard pdu.count == 65 else { return fail(Reason.invalidParameters) }
        let peerX = Array(pdu[1...32].reversed())
        let peerY = Array(pdu[33...64].reversed())
        let nb = random(16)
        guard let key = SecureConnectionsCrypto.keyPair(random(32)) else { return fail(Reason.unspecified) }
        guard let dhKey = SecureConnectionsCrypto.dhKey(key, peerX: peerX, peerY: peerY) else {
            return fail(Reason.dhKeyCheckFailed)
        }
        let own = SecureConnectionsCrypto.publicKey(key)
        let cb = SecureConnectionsCrypto.f4(own.x, peerX, nb, 0)
        phase = .awaitingRandom(request: request, response: response, nb: nb, dhKey: dhKey)
        return [
            .send([Opcode.publicKey] + own.x.reversed() + own.y.reversed()),
            .send([Opcode.pairingConfirm] + cb.reversed()),
        ]
    }

    /// A device's 56-bit address for f5 and f6: its type's octet, then the address, most significant first.
    static func address(_ device: (address: [UInt8], type: UInt8)) -> [UInt8] {
        [device.type] + device.address.reversed()
    }

    /// A pairing request's or response's IOcap for f6: AuthReq, OOB data flag, IO capability.
    static func ioCap(_ pdu: [UInt8]) -> [UInt8] { [pdu[3], pdu[2], pdu[1]] }

    /// Just Works' temporary key: zero (2.3.5.2).
    static let justWorksKey = [UInt8](repeating: 0, count: 16)

    private mutating func fail(_ reason: UInt8) -> [Output] {
        phase = .idle
        return [.send([Opcode.pairingFailed, reason]), .failed(reason: reason)]
    }
}
