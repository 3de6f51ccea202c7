import AirlinkCore

/// BlueZ's object paths (`/org/bluez/hci0/dev_C0_FF_EE_00_00_01/service000a/char000b/desc000d`) and
/// the ATT handles they encode, as bleak reads them: a service's path names its declaration handle,
/// a characteristic's its declaration handle (the value follows it), a descriptor's its own handle.
package enum BlueZPath {
    /// `/org/bluez/hci0`.
    package static func adapter(_ name: String) -> String { "/org/bluez/" + name }

    /// `/org/bluez/hci0/dev_C0_FF_EE_00_00_01`.
    package static func device(_ address: BDAddress, adapter: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text = Array("/org/bluez/".utf8) + Array(adapter.utf8) + Array("/dev_".utf8)
        for (index, byte) in address.bytes.enumerated() {
            if index > 0 { text.append(UInt8(ascii: "_")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The handle a path's last element encodes after `prefix` (`service`, `char`, `desc`).
    package static func handle(of path: String, prefix: String) -> ATTHandle? {
        guard let last = path.split(separator: "/").last, last.hasPrefix(prefix) else { return nil }
        let digits = last.dropFirst(prefix.count)
        guard digits.count == 4, let value = UInt16(digits, radix: 16), value != 0 else { return nil }
        return ATTHandle(value)
    }

    /// Whether `name` is an adapter name BlueZ uses: `hci` and a number.
    package static func isValidAdapterName(_ name: String) -> Bool {
        guard name.hasPrefix("hci") else { return false }
        let digits = name.dropFirst(3)
        return !digits.isEmpty && digits.count <= 5 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
