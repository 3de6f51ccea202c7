/// Three components along the sensor's X, Y and Z axes, in the unit its owner names.
///
/// ``SensorTagAcceleration`` reports standard gravity (g), ``SensorTagMagneticField`` microtesla,
/// ``SensorTagAngularVelocity`` degrees per second; ``SensorTagPhysics`` returns the same units.
public struct SensorTagVector: Hashable, Sendable, CustomStringConvertible {
    /// Along the sensor's X axis, in the owner's unit (g, µT or °/s).
    public var x: Double
    /// Along the sensor's Y axis, in the owner's unit.
    public var y: Double
    /// Along the sensor's Z axis, in the owner's unit (the sensor's axis: TI's apps flip it to draw).
    public var z: Double

    /// Creates a vector from its components.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// No acceleration, field or rotation on any axis.
    public static let zero = SensorTagVector(x: 0, y: 0, z: 0)

    /// √(x² + y² + z²), in the owner's unit: about 1 g for a tag at rest.
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
