import Airlink
import AirlinkCore

/// The JSON Lines of `observe --json` and `inspect --json`: one object a line, each with `event` and
/// the time in seconds since the command started (virtual on `sim`).
enum InspectorOutput {
    /// One line of `observe --json`.
    struct ObserveLine: Encodable {
        /// `found`, `value` (one of the inspector's values, when listed) or `changed` (a notification).
        var event: String
        var time: Seconds
        var name: String?
        var device: String?
        var identifier: String?
        var type: String?
        var options: [String]?
        /// The value, typed as JSON carries it (absent when it is not readable).
        var value: Value?
    }

    /// One line of `inspect --demo`: what happened and on which end, at a virtual time.
    struct ExchangeLine: Encodable {
        var time: Seconds
        var message: String

        /// The line of the text form, `[  1.617024s] observer reads ...`.
        var text: String { "\(time.stamp) \(message)" }
    }

    /// An inspected value as JSON: a Boolean, a number or a string (bytes as hex text, JSON as its text).
    enum Value: Encodable {
        case bool(Bool)
        case integer(Int64)
        case unsigned(UInt64)
        case number(Double)
        case text(String)

        init(_ value: InspectedValue) {
            switch value {
            case .bool(let bool): self = .bool(bool)
            case .unsigned(let number, _): self = .unsigned(number)
            case .signed(let number, _): self = .integer(number)
            case .double(let number): self = .number(number)
            case .string(let text): self = .text(text)
            case .bytes(let bytes): self = .text(Hex.text(bytes))
            case .json(let bytes): self = .text(String(decoding: bytes, as: UTF8.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let bool): try container.encode(bool)
            case .integer(let number): try container.encode(number)
            case .unsigned(let number): try container.encode(number)
            case .number(let number): try container.encode(number)
            case .text(let text): try container.encode(text)
            }
        }
    }

    /// `read,write,notify` as a list.
    static func options(_ options: InspectionOptions) -> [String] {
        [(InspectionOptions.read, "read"), (.write, "write"), (.notify, "notify")].filter { options.contains($0.0) }
            .map(\.1)
    }
}

/// Seconds as a JSON number, to the microsecond (the precision output keeps), with no float noise.
func jsonSeconds(_ duration: Duration) -> Seconds { Seconds(duration) }
