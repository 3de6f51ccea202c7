import AirlinkCore
import ArgumentParser

/// How a characteristic's value is typed on the command line (`--format`): AirlinkCore's
/// ``/AirlinkCore/GATTValueFormat`` (little-endian integers as GATT carries them, UTF-8 text, a Boolean, raw hex),
/// the same parser the scenario files use.
typealias ValueFormat = GATTValueFormat

extension GATTValueFormat: ExpressibleByArgument {
    /// What to type, for messages: `hex, uint8, ...`.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// The bytes a typed value stands for, for a command's `validate()`.
    ///
    /// - Throws: `ValidationError` with the parser's message and the other formats to choose from.
    func argumentBytes(of text: String) throws(ValidationError) -> [UInt8] {
        do {
            return try bytes(of: text)
        } catch {
            throw ValidationError("\(error.message); or choose another --format (\(Self.names))")
        }
    }
}

/// Hex text for bytes: `0x0a0b`, or `0a0b`, either case (``/AirlinkCore/GATTValueFormat/hex``).
enum Hex {
    /// `0x0a0b` (`0x` alone for no bytes).
    static func text(_ bytes: [UInt8]) -> String { GATTValueFormat.hexText(bytes) }

    /// Parses `0x0A0B` or `0a0b` (an even number of hex digits; `0x` or empty for no bytes).
    // try?: callers refuse `nil` with a message naming their flag.
    static func bytes(_ text: String) -> [UInt8]? { try? GATTValueFormat.hex.bytes(of: text) }
}
