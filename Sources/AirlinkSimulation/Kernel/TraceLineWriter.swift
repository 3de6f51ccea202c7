import AirlinkCore

/// Writes the text of one trace line straight into the trace's storage, without intermediate strings.
///
/// Hot trace lines (an ATT PDU crossing the air) are written piece by piece with it; what it writes
/// is the same text that string interpolation of the pieces' descriptions gives.
struct TraceLineWriter: TextOutputStream {
    /// The trace's bytes; the line is appended at the end.
    var bytes: [UInt8]

    /// Appends a string's UTF-8 bytes.
    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends one ASCII character.
    mutating func write(ascii: Unicode.Scalar) {
        bytes.append(UInt8(ascii: ascii))
    }

    /// Appends a non-negative integer in decimal, as `String(value)` prints it.
    mutating func write(decimal value: Int) {
        guard value > 0 else {
            if value == 0 { bytes.append(UInt8(ascii: "0")) } else { write(String(value)) }
            return
        }
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Appends `0x` and four uppercase hexadecimal digits, as an `ATTHandle` prints itself.
    mutating func write(hex4 value: UInt16) {
        bytes.append(UInt8(ascii: "0"))
        bytes.append(UInt8(ascii: "x"))
        for shift in stride(from: 12, through: 0, by: -4) {
            write(hexDigit: UInt8(truncatingIfNeeded: value >> UInt16(shift)) & 0x0F)
        }
    }

    /// Appends a device's written form (`C0:FF:EE:00:00:01`, `…/random`, `id:…`), an address
    /// without an intermediate string.
    mutating func write(device: DeviceID) {
        switch device.kind {
        case .address(let address, let type):
            for shift in stride(from: 40, through: 0, by: -8) {
                if shift != 40 { bytes.append(UInt8(ascii: ":")) }
                let byte = UInt8(truncatingIfNeeded: address.value >> UInt64(shift))
                write(hexDigit: byte >> 4)
                write(hexDigit: byte & 0x0F)
            }
            if type == .random { write("/random") }
        case .opaque:
            write(device.description)
        }
    }

    /// Appends one uppercase hexadecimal digit (`digit` below 16).
    private mutating func write(hexDigit digit: UInt8) {
        bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
    }
}
