import AirlinkCore
import Synchronization

/// A compiled name pattern: a regular expression the whole advertised name must match.
///
/// `@unchecked Sendable` because `Regex<AnyRegexOutput>` is not `Sendable`: it is created once and
/// then only matched by the device manager's event loop, one advertisement at a time, never
/// concurrently (``Discovery/receive(_:_:)`` runs on that loop only).
final class CompiledPattern: @unchecked Sendable {
    let source: String
    private let regex: Regex<AnyRegexOutput>

    init(source: String, regex: Regex<AnyRegexOutput>) {
        self.source = source
        self.regex = regex
    }

    /// Whether the whole of `name` matches; a name longer than ``NamePattern/maximumNameLength``
    /// bytes never does (no advertisement carries one, so it is not worth the matching time).
    func matches(_ name: String) -> Bool {
        guard name.utf8.count <= NamePattern.maximumNameLength else { return false }
        return (try? regex.wholeMatch(in: name)) != nil  // try?: only a custom regex component throws; none here
    }
}

/// Compiles discovery name patterns once per pattern.
///
/// Parsing a pattern costs more than the rest of a discovery's start; apps discover with the same
/// few patterns again and again, so compiled ones are kept (at most ``limit``).
final class NamePatterns: Sendable {
    /// The most patterns kept.
    static let limit = 64

    private let cache = Mutex<[String: CompiledPattern]>([:])

    /// The compiled `pattern`, or `nil` for no pattern.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the pattern when it does not parse or
    ///   could take unbounded time (``NamePattern`` says which patterns are refused).
    func compile(_ pattern: String?) throws(AirlinkError) -> CompiledPattern? {
        guard let pattern else { return nil }
        if let cached = cache.withLock({ $0[pattern] }) { return cached }
        let compiled = CompiledPattern(source: pattern, regex: try NamePattern.compile(pattern))
        cache.withLock { cache in
            if cache.count >= Self.limit { cache.removeAll() }
            cache[pattern] = compiled
        }
        return compiled
    }
}
