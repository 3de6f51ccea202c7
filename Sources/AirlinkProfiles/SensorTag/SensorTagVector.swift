/// Three components along the sensor's X, Y and Z axes, in the unit its owner names.
///
/// ``SensorTagAcceleration`` reports standard gravity (g), ``SensorTagMagneticField`` microtesla,
/// ``SensorTagAngularVelocity`` degrees per second; ``SensorTagPhysics`` returns the same units.
public struct SensorTagVector: Hashable, Sendable, CustomStringConvertible {
    /// The X component.
    public var x: Double
    /// The Y component.
    public var y: Double
    /// The Z component.
    public var z: Double

    /// Creates a vector from its components.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The zero vector.
    public static let zero = SensorTagVector(x: 0, y: 0, z: 0)

    /// The Euclidean length.
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }

    /// The largest absolute difference between corresponding components.
    ///
    /// - Parameter other: the vector to compare with.
    public func maximumDifference(to other: SensorTagVector) -> Double {
        max(abs(x - other.x), abs(y - other.y), abs(z - other.z))
    }

    /// Adds componentwise.
    public static func + (lhs: SensorTagVector, rhs: SensorTagVector) -> SensorTagVector {
        SensorTagVector(x: lhs.x + rhs.x, y: lhs.y + rhs.y, z: lhs.z + rhs.z)
    }

    /// Subtracts componentwise.
    public static func - (lhs: SensorTagVector, rhs: SensorTagVector) -> SensorTagVector {
        SensorTagVector(x: lhs.x - rhs.x, y: lhs.y - rhs.y, z: lhs.z - rhs.z)
    }

    /// Scales every component.
    public static func * (lhs: Double, rhs: SensorTagVector) -> SensorTagVector {
        SensorTagVector(x: lhs * rhs.x, y: lhs * rhs.y, z: lhs * rhs.z)
    }

    /// `(x, y, z)` with three decimals.
    public var description: String {
        func format(_ value: Double) -> String {
            let scaled = (value * 1000).rounded() / 1000
            return "\(scaled)"
        }
        return "(\(format(x)), \(format(y)), \(format(z)))"
    }
}
