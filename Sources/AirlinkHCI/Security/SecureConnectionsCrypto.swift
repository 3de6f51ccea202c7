import AirlinkCore
import AirlinkSimulation
import Crypto

/// The functions of LE Secure Connections pairing (Core Spec Vol 3, Part H, 2.2.6 to 2.2.8) and its P-256 key
/// agreement. Values are in the specification's byte order, most significant octet first (as its sample data in
/// Appendix D writes them); SMP carries them the other way round, so the responder reverses them at the PDU.
enum SecureConnectionsCrypto {
    /// `f4(U, V, X, Z) = AES-CMAC_X(U || V || Z)`: the confirm value (2.2.6).
    static func f4(_ u: [UInt8], _ v: [UInt8], _ x: [UInt8], _ z: UInt8) -> [UInt8] { cmac(x, u + v + [z]) }

    /// f5's SALT (2.2.7).
    static let salt: [UInt8] = [
        0x6C, 0x88, 0x83, 0x91, 0xAA, 0xF5, 0xA5, 0x38, 0x60, 0x37, 0x0B, 0xDB, 0x5A, 0x60, 0x83, 0xBE,
    ]

    /// `f5(W, N1, N2, A1, A2)`: the MacKey and the LTK from the DHKey `W`, both nonces and both addresses (each
    /// 56 bits: the address type's octet, then the address) (2.2.7).
    static func f5(_ w: [UInt8], _ n1: [UInt8], _ n2: [UInt8], _ a1: [UInt8], _ a2: [UInt8])
        -> (macKey: [UInt8], ltk: [UInt8])
    {
        let t = cmac(salt, w)
        let keyID: [UInt8] = [0x62, 0x74, 0x6C, 0x65]  // "btle"
        let length: [UInt8] = [0x01, 0x00]  // 256 bits
        let rest = keyID + n1 + n2 + a1 + a2 + length
        return (cmac(t, [0] + rest), cmac(t, [1] + rest))
    }

    /// `f6(W, N1, N2, R, IOcap, A1, A2) = AES-CMAC_W(N1 || N2 || R || IOcap || A1 || A2)`: the DHKey check value
    /// (2.2.8); `IOcap` is AuthReq, OOB data flag, IO capability, in that order.
    static func f6(
        _ w: [UInt8], _ n1: [UInt8], _ n2: [UInt8], _ r: [UInt8], _ ioCap: [UInt8], _ a1: [UInt8], _ a2: [UInt8]
    ) -> [UInt8] {
        cmac(w, n1 + n2 + r + ioCap + a1 + a2)
    }

    /// A P-256 key pair made from 32 octets of the caller's randomness (the controller's seeded source, so that a
    /// served world stays reproducible), or `nil` for the rare octets that are no private key (zero, or not below
    /// the curve's order).
    static func keyPair(_ octets: [UInt8]) -> P256.KeyAgreement.PrivateKey? {
        try? P256.KeyAgreement.PrivateKey(rawRepresentation: octets)  // try?: `nil` is this function's answer
    }

    /// The public key's X and Y, 32 octets each, most significant first.
    static func publicKey(_ key: P256.KeyAgreement.PrivateKey) -> (x: [UInt8], y: [UInt8]) {
        let raw = Array(key.publicKey.rawRepresentation)
        return (Array(raw[0..<32]), Array(raw[32..<64]))
    }

    /// The DHKey (the shared point's X, most significant octet first), or `nil` when the peer's key is not a point
    /// of the curve (an invalid public key ends the pairing, 2.3.5.6.1).
    static func dhKey(_ key: P256.KeyAgreement.PrivateKey, peerX: [UInt8], peerY: [UInt8]) -> [UInt8]? {
        // try?: a key off the curve is refused, and `nil` says so
        guard let peer = try? P256.KeyAgreement.PublicKey(rawRepresentation: peerX + peerY),
            let secret = try? key.sharedSecretFromKeyAgreement(with: peer)
        else { return nil }
        return secret.withUnsafeBytes { Array($0) }
    }

    private static func cmac(_ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        // Every key here is 16 octets by construction (a nonce, SALT, T, the MacKey): AESCMAC throws only for others.
        try! AESCMAC.mac(key: key, message: message)
    }
}
