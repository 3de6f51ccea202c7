/// Builds the entries of a ``Timeline``.
@resultBuilder
public enum TimelineBuilder {
    /// An entry.
    public static func buildExpression(_ entry: At) -> [At] { [entry] }
    /// Entries in sequence.
    public static func buildBlock(_ parts: [At]...) -> [At] { parts.flatMap { $0 } }
    /// An optional entry.
    public static func buildOptional(_ part: [At]?) -> [At] { part ?? [] }
    /// One branch of a condition.
    public static func buildEither(first part: [At]) -> [At] { part }
    /// The other branch of a condition.
    public static func buildEither(second part: [At]) -> [At] { part }
    /// Entries of a loop.
    public static func buildArray(_ parts: [[At]]) -> [At] { parts.flatMap { $0 } }
}
