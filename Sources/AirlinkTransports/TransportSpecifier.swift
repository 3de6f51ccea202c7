import AirlinkCore

/// A transport as a user names it: `sim`, `sim:PATH`, `bluez`, `bluez:hci1` (as Bumble opens `usb:0`).
public enum TransportSpecifier: Hashable, Sendable, CustomStringConvertible, LosslessStringConvertible {
    /// The virtual radio, with the built-in world or loaded from a file (the CLI replays a recording).
    case simulation(scenario: String?)
    /// BlueZ on an adapter (`nil`: the first one BlueZ lists).
    case bluez(adapter: String?)

    /// The environment variable a specifier is read from when no flag gives one.
    public static let environmentVariable = "AIRLINK_TRANSPORT"

    /// Parses `sim`, `sim:PATH`, `bluez` or `bluez:hciN`.
    ///
    /// - Parameter text: what the user typed.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument``, naming the accepted forms.
    public init(parsing text: String) throws(AirlinkError) {
        let forms = "write sim, sim:PATH (a recording), bluez, or bluez:hci0"
        let trimmed = text.trimmingSpaces
        let (kind, argument): (Substring, Substring?) =
            if let colon = trimmed.firstIndex(of: ":") {
                (trimmed[..<colon], trimmed[trimmed.index(after: colon)...])
            } else {
                (trimmed[...], nil)
            }
        switch kind.lowercased() {
        case "sim":
            if let argument, argument.isEmpty {
                throw AirlinkError(.invalidArgument, "\"\(text)\" has no scenario path after sim:; \(forms)")
            }
            self = .simulation(scenario: argument.map(String.init))
        case "bluez":
            guard let argument else {
                self = .bluez(adapter: nil)
                return
            }
            let digits = argument.dropFirst(3)
            guard argument.hasPrefix("hci"), !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw AirlinkError(
                    .invalidArgument,
                    "\"\(argument)\" in \"\(text)\" is not a BlueZ adapter name such as hci0 (`bluetoothctl list` "
                        + "shows them); \(forms)")
            }
            self = .bluez(adapter: String(argument))
        case "":
            throw AirlinkError(.invalidArgument, "no transport given; \(forms)")
        default:
            throw AirlinkError(.invalidArgument, "\"\(text)\" names no transport Airlink knows; \(forms)")
        }
    }

    /// Parses a specifier, returning `nil` on failure.
    public init?(_ description: String) {
        // try?: LosslessStringConvertible's init? has no error to give; init(parsing:) is the one that says why
        guard let parsed = try? TransportSpecifier(parsing: description) else { return nil }
        self = parsed
    }

    /// The specifier in `AIRLINK_TRANSPORT` of `environment`, or `nil` when unset or empty.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when it is set to something unparsable.
    public static func fromEnvironment(_ environment: [String: String]) throws(AirlinkError) -> TransportSpecifier? {
        guard let value = environment[environmentVariable], !value.trimmingSpaces.isEmpty else { return nil }
        do {
            return try TransportSpecifier(parsing: value)
        } catch {
            throw AirlinkError(
                .invalidArgument, "\(environmentVariable)=\(value): \(error.message)", cause: .underlying(error))
        }
    }

    /// `sim`, `sim:PATH`, `bluez`, `bluez:hci1`.
    public var description: String {
        switch self {
        case .simulation(nil): "sim"
        case .simulation(let path?): "sim:" + path
        case .bluez(nil): "bluez"
        case .bluez(let adapter?): "bluez:" + adapter
        }
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: Substring {
        let characters = self[...]
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
            let last = characters.lastIndex(where: { !$0.isWhitespace })
        else { return Substring() }
        return Substring(characters[first...last])
    }
}
