import AirlinkCore
import CryptoExtras

/// AES-CMAC (RFC 4493; NIST SP 800-38B), as the GATT Database Hash uses it: swift-crypto's `AES.CMAC`, not a
/// cipher of Airlink's own.
///
/// `package` so that the tests can run RFC 4493's vectors through the very call the hash makes.
package enum AESCMAC {
    /// The key the Database Hash uses: 16 zero bytes (Core Spec Vol 3, Part G, 7.3).
    package static let zeroKey = [UInt8](repeating: 0, count: 16)

    /// The 16-byte MAC of `message` under `key`.
    ///
    /// - Throws: ``AirlinkError/Code/invalidArgument`` when `key` is not 16, 24 or 32 bytes long.
    package static func mac(key: [UInt8], message: [UInt8]) throws(AirlinkError) -> [UInt8] {
        var cmac: AES.CMAC
        do {
            cmac = try AES.CMAC(key: SymmetricKey(data: key))
        } catch {
            throw AirlinkError(.invalidArgument, "an AES-CMAC key is 16, 24 or 32 bytes, not \(key.count)")
        }
        message.withUnsafeBytes { cmac.update(bufferPointer: $0) }
        return cmac.finalize().withUnsafeBytes { [UInt8]($0) }
    }
}
