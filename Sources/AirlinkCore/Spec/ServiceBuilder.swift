/// Builds a list of ``Service``s.
@resultBuilder
public enum ServiceBuilder {
    /// A service.
    public static func buildExpression(_ service: Service) -> [Service] { [service] }
    /// Services in sequence.
    public static func buildBlock(_ parts: [Service]...) -> [Service] { parts.flatMap { $0 } }
    /// An optional service.
    public static func buildOptional(_ part: [Service]?) -> [Service] { part ?? [] }
    /// One branch of a condition.
    public static func buildEither(first part: [Service]) -> [Service] { part }
    /// The other branch of a condition.
    public static func buildEither(second part: [Service]) -> [Service] { part }
    /// Services of a loop.
    public static func buildArray(_ parts: [[Service]]) -> [Service] { parts.flatMap { $0 } }
}
