extension StringProtocol {
    /// The text with every control character written as an escape (`\n`, `\t`, `\u{1B}`), so that
    /// text from outside (an advertised name any device chooses, a value, a typed argument) cannot
    /// move the cursor, recolour or retitle a terminal when printed. A backslash stays as it is.
    ///
    /// - Parameter newlines: keep line feeds as they are (a message of several lines); other
    ///   control characters are still escaped.
    public func escapingControlCharacters(keepingNewlines newlines: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n" where newlines: result.unicodeScalars.append(scalar)
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.isTerminalControl:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension Unicode.Scalar {
    /// Whether printing the scalar can drive a terminal: a C0 or C1 control or DEL, or a
    /// bidirectional embedding, override or isolate (which reorder the text that follows on screen).
    public var isTerminalControl: Bool {
        properties.generalCategory == .control || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }
}
