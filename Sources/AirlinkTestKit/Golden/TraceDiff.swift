/// A readable line diff of two traces: `-` expected lines, `+` actual lines, with a little context.
public enum TraceDiff {
    /// The differences between two texts, or `nil` when they are equal.
    ///
    /// - Parameters:
    ///   - expected: the golden text.
    ///   - actual: the new text.
    ///   - context: unchanged lines shown around each change.
    ///   - limit: the most lines of output.
    public static func diff(expected: String, actual: String, context: Int = 2, limit: Int = 80) -> String? {
        guard expected != actual else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Trim the common prefix and suffix, then an LCS of what remains (bounded).
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        let a = Array(old[prefix..<(old.count - suffix)])
        let b = Array(new[prefix..<(new.count - suffix)])
        var edits: [(Character, String)] = []
        if a.count * b.count <= 4_000_000 {
            var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                }
            }
            var i = 0
            var j = 0
            while i < a.count || j < b.count {
                if i < a.count, j < b.count, a[i] == b[j] {
                    edits.append((" ", a[i]))
                    i += 1
                    j += 1
                } else if i < a.count, j == b.count || table[i + 1][j] >= table[i][j + 1] {
                    edits.append(("-", a[i]))
                    i += 1
                } else {
                    edits.append(("+", b[j]))
                    j += 1
                }
            }
        } else {
            edits = a.map { ("-", $0) } + b.map { ("+", $0) }
        }
        var lines = ["@@ first difference at line \(prefix + 1) @@"]
        for line in old[max(0, prefix - context)..<prefix] { lines.append("  \(line)") }
        for (mark, line) in edits { lines.append("\(mark) \(line)") }
        for line in old[(old.count - suffix)..<min(old.count, old.count - suffix + context)] {
            lines.append("  \(line)")
        }
        if lines.count > limit {
            lines = Array(lines.prefix(limit)) + ["... \(lines.count - limit) more line(s) of diff"]
        }
        return lines.joined(separator: "\n")
    }
}
