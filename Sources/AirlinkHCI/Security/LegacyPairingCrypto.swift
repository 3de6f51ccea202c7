import AirlinkCore
import CryptoExtras

/// The security functions of LE legacy pairing (Core Spec Vol 3, Part H, 2.2): `e`, the confirm value `c1` and
/// the key generation `s1`. Every value is in SMP's byte order, least significant octet first, as it travels.
enum LegacyPairingCrypto {
    /// `e(k, r)`: AES-128 of one block (2.2.1). The specification writes key and block most significant octet
    /// first, as AES takes them; SMP carries them the other way round.
    static func e(_ key: [UInt8], _ block: [UInt8]) -> [UInt8] {
        var payload = Array(block.reversed())
        // Both are 16 bytes by construction: AES.permute throws only for other sizes.
        try! AES.permute(&payload, key: SymmetricKey(data: key.reversed()))
        return payload.reversed()
    }

    /// `c1`, the confirm value generation function (2.2.3): `e(k, e(k, r XOR p1) XOR p2)` with
    /// `p1 = pres || preq || rat' || iat'` and `p2 = padding || ia || ra`.
    ///
    /// - Parameters:
    ///   - key: the temporary key (zero for Just Works).
    ///   - random: Mrand or Srand.
    ///   - request: the Pairing Request as sent, opcode first (7 octets).
    ///   - response: the Pairing Response as sent, opcode first (7 octets).
    ///   - initiator: the initiating device's address (HCI order) and type (0 public, 1 random).
    ///   - responder: the responding device's address (HCI order) and type.
    static func c1(
        key: [UInt8], random: [UInt8], request: [UInt8], response: [UInt8], initiator: (address: [UInt8], type: UInt8),
        responder: (address: [UInt8], type: UInt8)
    ) -> [UInt8] {
        let p1 = [initiator.type, responder.type] + request + response
        let p2 = responder.address + initiator.address + [0, 0, 0, 0]
        return e(key, xor(e(key, xor(random, p1)), p2))
    }

    /// `s1`, the key generation function (2.2.4): `e(k, r1' || r2')`, the least significant 64 bits of Srand
    /// (`r1`) above those of Mrand (`r2`).
    static func s1(key: [UInt8], responderRandom r1: [UInt8], initiatorRandom r2: [UInt8]) -> [UInt8] {
        e(key, Array(r2.prefix(8)) + Array(r1.prefix(8)))
    }

    /// A key shortened to `size` octets: the most significant ones zeroed (2.3.4).
    static func shortened(_ key: [UInt8], to size: Int) -> [UInt8] {
        key.enumerated().map { $0.offset < size ? $0.element : 0 }
    }

    static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { zip(a, b).map { $0 ^ $1 } }
}
