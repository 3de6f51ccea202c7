import AirlinkCore

/// The rules a discovery name pattern must follow, so that matching it against any advertised name
/// ends quickly: on BlueZ any device nearby chooses its own name, so the name is hostile input.
///
/// A backtracking matcher takes exponential time on patterns that repeat something which can itself
/// match in several ways: `(a+)+`, `((.*)*)*`, `(a|aa)*`. Such patterns are refused: a group that
/// repeats (`*`, `+`, `{2,}`) may hold neither a quantifier nor an alternation, and a pattern holds at
/// most ``maximumRepetitions`` repeating quantifiers (each multiplies the work by the name's length).
/// Names longer than ``maximumNameLength`` bytes never match (an advertised name has at most 248).
public enum NamePattern {
    /// The longest name matched, in UTF-8 bytes: the longest name an advertisement or a GAP Device
    /// Name carries.
    public static let maximumNameLength = 248

    /// The most repeating quantifiers a pattern may hold.
    public static let maximumRepetitions = 2

    /// The longest pattern accepted, in characters.
    public static let maximumPatternLength = 1_000

    /// Checks that `pattern` is a regular expression that matches in bounded time.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the pattern, what makes it slow or
    ///   invalid, and what to write instead.
    public static func check(_ pattern: String) throws(AirlinkError) {
        _ = try compile(pattern)
    }

    /// Checks `pattern` and compiles it.
    static func compile(_ pattern: String) throws(AirlinkError) -> Regex<AnyRegexOutput> {
        let shown = pattern.escapingControlCharacters()
        guard pattern.count <= maximumPatternLength else {
            throw AirlinkError(
                .invalidArgument,
                "the name pattern is \(pattern.count) characters long; write one of at most \(maximumPatternLength)")
        }
        let regex: Regex<AnyRegexOutput>
        do { regex = try Regex(pattern) } catch {
            throw AirlinkError(
                .invalidArgument,
                "the name pattern \"\(shown)\" is not a valid regular expression (\(error)); escape special "
                    + "characters with a backslash, or pass nil to accept every name")
        }
        var scan = PatternScan(Array(pattern))
        if let problem = scan.problem() {
            throw AirlinkError(.invalidArgument, "the name pattern \"\(shown)\" \(problem)")
        }
        return regex
    }
}

/// One pass over a pattern's characters, tracking groups, that finds what would make it slow.
private struct PatternScan {
    /// What a group (or the whole pattern, at the bottom) holds so far.
    private struct Group {
        var quantified = false
        var alternated = false
    }

    private let characters: [Character]
    private var index = 0
    private var groups = [Group()]
    private var repetitions = 0

    init(_ characters: [Character]) { self.characters = characters }

    /// A sentence saying what is wrong, or `nil` when the pattern matches in bounded time.
    mutating func problem() -> String? {
        var lastGroup: Group?
        var afterQuantifier = false
        while index < characters.count {
            let character = characters[index]
            index += 1
            var closed: Group?
            var quantifierRead = false
            switch character {
            case "\\": index += 1
            case "[": skipClass()
            case "(":
                groups.append(Group())
                skipGroupKind()
            case ")" where groups.count > 1:
                closed = groups.removeLast()
                if closed!.quantified { groups[groups.count - 1].quantified = true }
                if closed!.alternated { groups[groups.count - 1].alternated = true }
            case "|": groups[groups.count - 1].alternated = true
            case "?" where afterQuantifier, "+" where afterQuantifier: break  // `a*?`, `a++`: lazy or possessive
            case "*", "+", "?", "{":
                guard let repeats = quantifier(character) else { break }
                quantifierRead = true
                groups[groups.count - 1].quantified = true
                guard repeats else { break }
                repetitions += 1
                if let group = lastGroup, group.quantified || group.alternated {
                    return "repeats a group that itself holds a "
                        + (group.quantified ? "quantifier" : "choice (|)")
                        + ", which can take exponential time on a hostile name; repeat once: a+ rather than "
                        + "(a+)+, .* rather than (.*)*, a character class such as [ab]* rather than (a|b)*"
                }
                if repetitions > NamePattern.maximumRepetitions {
                    return "holds more than \(NamePattern.maximumRepetitions) repetitions (*, +, {n,}), each "
                        + "multiplying the work on a long name; write fewer, such as ^Thermo.* instead of .*Thermo.*.*"
                }
            default: break
            }
            lastGroup = closed
            afterQuantifier = quantifierRead
        }
        return nil
    }

    /// Reads a quantifier whose first character was just read: `nil` if it is not one (a literal `{`),
    /// else whether it repeats (more than once).
    private mutating func quantifier(_ first: Character) -> Bool? {
        switch first {
        case "?": return false
        case "*", "+": return true
        default:
            var end = index
            while end < characters.count, characters[end] != "}" { end += 1 }
            guard end < characters.count else { return nil }
            let body = String(characters[index..<end])
            let bounds = body.split(separator: ",", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), bounds.allSatisfy({ $0.isEmpty || Int($0) != nil }),
                !(bounds.first?.isEmpty ?? true)
            else { return nil }
            index = end + 1
            let upper = bounds.count == 1 ? Int(bounds[0]) : Int(bounds[1])
            return upper.map { $0 > 1 } ?? true
        }
    }

    /// Skips what follows `(?` in a group that is not a plain one: `?:`, `?=`, `?!`, `?<=`, `?<name>`, `?i`.
    private mutating func skipGroupKind() {
        guard index < characters.count, characters[index] == "?" else { return }
        index += 1
        while index < characters.count, characters[index] != ")" {
            let character = characters[index]
            guard character.isLetter || character.isNumber || "_-<>'=!:".contains(character) else { return }
            index += 1
            if ":>=!".contains(character) { return }
        }
    }

    /// Skips a character class (`[a-z]`, `[^]]`, nested `[a[b]]`), which repeats no group.
    private mutating func skipClass() {
        var depth = 1
        if index < characters.count, characters[index] == "^" { index += 1 }
        if index < characters.count, characters[index] == "]" { index += 1 }
        while index < characters.count, depth > 0 {
            switch characters[index] {
            case "\\": index += 1
            case "[": depth += 1
            case "]": depth -= 1
            default: break
            }
            index += 1
        }
    }
}
