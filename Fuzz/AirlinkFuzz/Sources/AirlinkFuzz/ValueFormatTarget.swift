import AirlinkCore

/// The value formats of the command line (`--format uint16`): bytes to text and text to bytes.
///
/// Input: a byte choosing the format (low 7 bits), then bytes to show or, with the high bit set, text
/// to parse. Showing throws only `malformedData` and parsing only `invalidArgument`; the text of some
/// bytes parses back to those bytes, and the bytes parsed from text show as text that parses to them again.
let valueFormatTarget = FuzzTarget(name: "value-format") { bytes in
    let name = "value-format"
    guard let first = bytes.first else { return }
    let formats = GATTValueFormat.allCases
    let format = formats[Int(first & 0x7F) % formats.count]
    var payload = Array(bytes.dropFirst())
    if first & 0x80 != 0 {
        guard let text = String(validating: payload, as: UTF8.self) else { return }
        do throws(AirlinkError) {
            payload = try format.bytes(of: text)
        } catch {
            guard error.code == .invalidArgument else { violated(name, "parsing \(format) threw \(error.code)") }
            return
        }
    }
    let text: String
    do throws(AirlinkError) {
        text = try format.text(of: payload)
    } catch {
        guard error.code == .malformedData else { violated(name, "showing \(format) threw \(error.code)") }
        return
    }
    do {
        let again = try format.bytes(of: text)
        guard again == payload else { violated(name, "\(format) text \"\(text)\" of \(payload) parses to \(again)") }
    } catch {
        violated(name, "\(format) text \"\(text)\" of \(payload) does not parse: \(error)")
    }
}
