import AirlinkCore
import ArgumentParser
import Foundation

/// Printing results: JSON for scripts (`--json`), aligned tables for people.
enum Output {
    /// Pretty, key-sorted JSON.
    static func json(_ value: some Encodable) -> String { encoded(value, [.prettyPrinted]) }

    /// One JSON object on one line (for streams).
    static func jsonLine(_ value: some Encodable) -> String { encoded(value, []) }

    /// Key-sorted JSON in which no character can drive a terminal: the encoder escapes C0 controls,
    /// and DEL, the C1 controls and the bidirectional controls (which it leaves raw) are written as
    /// `\u` escapes too (they occur only inside strings, where the escape means the same character).
    private static func encoded(_ value: some Encodable, _ formatting: JSONEncoder.OutputFormatting) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting.union([.sortedKeys, .withoutEscapingSlashes])
        // A number JSON cannot write (NaN, an infinity) is written as a string, so it costs its own field and
        // not the whole object.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        // try?: cannot fail: what the CLI prints is plain structs, strings, integers and (above) any Double.
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        var text = ""
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            if scalar.isTerminalControl, scalar.value >= 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// Rows aligned in columns, the last column left ragged; control characters in the cells are
    /// escaped (a device chooses its own name, and a name must not rewrite the terminal).
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let rows = rows.map { $0.map { $0.escapingControlCharacters() } }
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}

/// Parsing the positional arguments shared by the GATT commands, with messages that say what to type.
enum Arguments {
    /// A device id such as `C0:FF:EE:00:00:01`; an opaque `id:` one may hold no space or control
    /// character (no transport makes one, so it would only be a typing slip).
    static func device(_ text: String) throws(ValidationError) -> DeviceID {
        let example = "airlink scan lists the ids"
        if text.hasPrefix(DeviceID.opaquePrefix),
            text.unicodeScalars.contains(where: {
                $0.properties.isWhitespace || $0.properties.generalCategory == .control
            })
        {
            throw ValidationError(
                "\"\(text)\" is not a device ID: the identifier after id: holds a space or a control character "
                    + "(\(example))")
        }
        do { return try DeviceID(parsing: text) } catch {
            throw ValidationError("\(error.message) (\(example))")
        }
    }

    /// A service or characteristic: a UUID, or an assigned name such as `battery` or `battery-level`.
    static func uuid(_ text: String, _ what: String) throws(ValidationError) -> BluetoothUUID {
        do { return try BluetoothUUID(named: text) } catch {
            throw ValidationError("the \(what) \"\(text)\": \(error.message)")
        }
    }
}

/// Prints a line at once, its control characters escaped: standard output is a pipe or a file as
/// often as a terminal, commands that run until interrupted (subscribe, observe, inspect) are read as
/// they go, and the line may hold a name or a value another device chose.
func emit(_ line: String) {
    print(line.escapingControlCharacters())
    fflush(nil)
}
