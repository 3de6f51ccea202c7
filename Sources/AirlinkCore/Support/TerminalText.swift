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
            case _ where scalar.properties.generalCategory == .control || isBidirectionalControl(scalar):
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Embeddings, overrides and isolates reorder the text that follows them on screen.
private func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
    (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
}
