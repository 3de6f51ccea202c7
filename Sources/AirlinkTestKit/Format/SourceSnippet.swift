import Yams

/// The line of a file a message points at, with a caret under the column, clipped so that the message
/// stays short whatever the file holds: a 16 MiB line shows at most ``width`` characters of itself.
///
/// ```text
/// …xxxxxxxxxxxxxxxxxxxx" bad
///                        ^
/// ```
enum SourceSnippet {
    /// The most characters of a line shown (an ellipsis marks each side cut off).
    static let width = 100

    /// The line `mark` points into (line and column from 1, the column in Unicode scalars, as libyaml
    /// counts), clipped around the column, and a caret under it.
    static func at(_ mark: Mark, in text: String) -> String {
        at(line: mark.line, column: mark.column, in: text)
    }

    /// As ``at(_:in:)`` for a line and column (both from 1; the column in Unicode scalars).
    static func at(line: Int, column: Int, in text: String) -> String {
        let scalars = Array(Self.line(line, of: text).unicodeScalars)
        let target = min(max(column - 1, 0), scalars.count)
        let start = scalars.count <= width ? 0 : max(0, min(target - width / 2, scalars.count - width))
        let end = min(scalars.count, start + width)
        var shown = String(String.UnicodeScalarView(scalars[start..<end]))
        var caret = target - start
        if start > 0 {
            shown = "…" + shown
            caret += 1
        }
        if end < scalars.count { shown += "…" }
        return shown + "\n" + String(repeating: " ", count: caret) + "^"
    }

    /// Where a reader's error offset (in characters from the start, as Yams gives it) falls: line and column,
    /// both from 1, the column in Unicode scalars.
    static func location(ofCharacterOffset offset: Int, in text: String) -> (line: Int, column: Int) {
        let index = text.index(text.startIndex, offsetBy: max(offset, 0), limitedBy: text.endIndex) ?? text.endIndex
        let before = text.unicodeScalars[..<index]
        let lineStart = before.lastIndex(of: "\n").map { text.unicodeScalars.index(after: $0) } ?? text.startIndex
        let line = before.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        return (line, text.unicodeScalars.distance(from: lineStart, to: index) + 1)
    }

    /// The text of line `number` (from 1) without its line break; empty past the end.
    private static func line(_ number: Int, of text: String) -> Substring {
        let bytes = text.utf8
        var remaining = number - 1
        var start = bytes.startIndex
        while remaining > 0, let newline = bytes[start...].firstIndex(of: 0x0A) {
            start = bytes.index(after: newline)
            remaining -= 1
        }
        guard remaining == 0 else { return "" }
        let end = bytes[start...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? bytes.endIndex
        return text[start..<end]
    }
}
