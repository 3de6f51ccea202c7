import AirlinkCore
import CBlueZ

/// BD_ADDR parsing and printing by libbluetooth (`str2ba`, `ba2str`), and conversion between
/// `bdaddr_t` (least significant byte first) and ``/AirlinkCore/BDAddress``.
///
/// libbluetooth accepts only the colon form (`C0:FF:EE:00:00:01`, either case), where ``/AirlinkCore/BDAddress``
/// also takes hyphens; both print uppercase with colons.
public enum LibBluetoothAddress {
    /// Parses an address with `str2ba` (which checks it with `bachk` first).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidDeviceID`` when libbluetooth rejects it.
    public static func parse(_ text: String) throws(AirlinkError) -> BDAddress {
        var raw = bdaddr_t()
        guard text.utf8.count == 17, str2ba(text, &raw) == 0 else {
            throw AirlinkError(
                .invalidDeviceID, "libbluetooth does not read \"\(text)\" as an address (it wants C0:FF:EE:00:00:01)")
        }
        return address(raw)
    }

    /// Prints an address with `ba2str`: `C0:FF:EE:00:00:01`.
    public static func format(_ address: BDAddress) -> String {
        var raw = bdaddr(address)
        var buffer = [CChar](repeating: 0, count: 18)
        _ = ba2str(&raw, &buffer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A `bdaddr_t` as an address.
    static func address(_ raw: bdaddr_t) -> BDAddress {
        let bytes = withUnsafeBytes(of: raw.b) { Array($0) }
        return (try? BDAddress(littleEndian: bytes)) ?? .zero  // try?: a bdaddr_t is always 6 bytes, all it needs
    }

    /// An address as a `bdaddr_t`.
    static func bdaddr(_ address: BDAddress) -> bdaddr_t {
        var raw = bdaddr_t()
        let bytes = address.littleEndianBytes
        withUnsafeMutableBytes(of: &raw.b) { buffer in
            for index in 0..<6 { buffer[index] = bytes[index] }
        }
        return raw
    }
}
