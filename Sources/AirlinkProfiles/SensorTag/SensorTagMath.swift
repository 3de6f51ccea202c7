#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few libm functions the SensorTag formulas and physics need, without importing Foundation.
enum SensorTagMath {
    /// `x` raised to `y`.
    static func power(_ x: Double, _ y: Double) -> Double { pow(x, y) }
    /// e raised to `x`.
    static func exponential(_ x: Double) -> Double { exp(x) }
    /// The natural logarithm.
    static func logarithm(_ x: Double) -> Double { log(x) }
    /// The sine of `x` radians.
    static func sine(_ x: Double) -> Double { sin(x) }
    /// The cosine of `x` radians.
    static func cosine(_ x: Double) -> Double { cos(x) }
}
