/// The ``RandomSource`` for hardware: the system's cryptographically secure generator.
public final class SystemRandomSource: RandomSource {
    /// Creates a source on the system generator.
    public init() {}

    /// The next 64 random bits from `SystemRandomNumberGenerator`.
    public func next() -> UInt64 {
        // Hardware only: simulations take a seeded source from their `Simulation`.
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }
}
