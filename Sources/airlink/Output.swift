import AirlinkCore
import ArgumentParser
import Foundation

/// Printing results: JSON for scripts (`--json`), aligned tables for people.
enum Output {
    /// Pretty, key-sorted JSON.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// One JSON object on one line (for streams).
    static func jsonLine(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Rows aligned in columns, the last column left ragged.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
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
    /// A device id such as `C0:FF:EE:00:00:01`.
    static func device(_ text: String) throws(ValidationError) -> DeviceID {
        do { return try DeviceID(parsing: text) } catch {
            throw ValidationError(
                "\"\(text)\" is not a device id: \(error.message) (airlink scan lists the ids, such as C0:FF:EE:00:00:01)"
            )
        }
    }

    /// A service or characteristic: a UUID, or an assigned name such as `battery` or `battery-level`.
    static func uuid(_ text: String, _ what: String) throws(ValidationError) -> BluetoothUUID {
        do { return try BluetoothUUID(named: text) } catch {
            throw ValidationError("the \(what) \"\(text)\": \(error.message)")
        }
    }
}

/// Prints a line at once: standard output is a pipe or a file as often as a terminal, and commands
/// that run until interrupted (subscribe, observe, inspect) are read as they go.
func emit(_ line: String) {
    print(line)
    fflush(nil)
}
