/// Where a simulated peripheral stands, in metres from the central's adapter at the origin.
///
/// The virtual radio's path-loss model turns the distance into an RSSI; a position far enough away
/// puts the peripheral out of range.
public struct Position: Sendable, Hashable, CustomStringConvertible {
    /// Metres along x.
    public var x: Double
    /// Metres along y.
    public var y: Double
    /// Metres along z.
    public var z: Double

    /// Creates a position from its coordinates in metres.
    public init(x: Double, y: Double = 0, z: Double = 0) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// A position `metres` away from the central, along x.
    public static func metres(_ metres: Double) -> Position { Position(x: metres) }

    /// The distance from the origin (the central), in metres.
    public var distance: Double { (x * x + y * y + z * z).squareRoot() }

    /// The distance to another position, in metres.
    public func distance(to other: Position) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        let dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// `(3.0, 0.0, 0.0) m`.
    public var description: String { "(\(x), \(y), \(z)) m" }
}
