import Airlink
import AirlinkCore

/// Inspected values, as a central's write or a command line delivers them.
///
/// Input: a byte naming the type (its low 7 bits, the type's code: unknown codes too), then the bytes
/// of a write, or, with the byte's high bit set, the text to parse. Bytes decode or are refused with an
/// ATT error; a decoded value's bytes are the bytes written. Text parses or throws `invalidArgument`;
/// a parsed value's bytes decode again to the same bytes and the same type.
let inspectedValueTarget = FuzzTarget(name: "inspected-value") { bytes in
    let name = "inspected-value"
    guard let first = bytes.first else { return }
    let type = InspectedType(code: first & 0x7F)
    let payload = Array(bytes.dropFirst())
    if first & 0x80 == 0 {
        guard let value = try? InspectedValue(decoding: payload, as: type) else { return }
        guard value.bytes == payload else { violated(name, "\(value).bytes != \(payload)") }
        guard !type.isKnown || value.type == type else { violated(name, "decoded \(value) as \(type)") }
        _ = value.description
        return
    }
    guard let text = String(validating: payload, as: UTF8.self) else { return }
    let value: InspectedValue
    do throws(AirlinkError) {
        value = try InspectedValue(parsing: text, as: type)
    } catch {
        guard error.code == .invalidArgument else { violated(name, "parsing threw \(error.code)") }
        return
    }
    guard let again = try? InspectedValue(decoding: value.bytes, as: value.type) else {
        violated(name, "the bytes of parsed \(value) do not decode as \(value.type)")
    }
    guard again.bytes == value.bytes, again.type == value.type else {
        violated(name, "parsed \(value) decodes to \(again)")
    }
}
