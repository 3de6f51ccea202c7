import AirlinkCore

/// The accelerometer data (F000AA11): the KXTJ9's three 8-bit axes at its ±2 g range.
///
/// Layout, 3 bytes: X, Y, Z, each signed. At ±2 g with 8-bit output the KXTJ9 gives 64 counts per g (KXTJ9
/// datasheet, sensitivity table), so `a = raw / 64 g`, from -2 g to +1.984 g; this is the formula of TI's
/// SensorTag User Guide and Android app for the CC2541 tag. (Deanna's `calcAccel` adds one count first,
/// `(raw + 1) / 64`, a bias of 1/64 g this type does not copy.) The axes are the sensor's; TI's apps flip
/// Z to draw the tag.
public struct SensorTagAcceleration: GATTValue, Hashable, CustomStringConvertible {
    /// Counts per g at the ±2 g range, 64.
    public static let countsPerG = 64.0
    /// Standard gravity, 9.80665 m/s² per g.
    public static let standardGravity = 9.806_65

    /// X in counts, −128…127 (64 per g).
    public var rawX: Int8
    /// Y in counts, −128…127 (64 per g).
    public var rawY: Int8
    /// Z in counts, −128…127 (64 per g).
    public var rawZ: Int8

    /// Creates a reading from the three counts.
    public init(rawX: Int8, rawY: Int8, rawZ: Int8) {
        (self.rawX, self.rawY, self.rawZ) = (rawX, rawY, rawZ)
    }

    /// Decodes the 3 bytes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for any length but 3.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try SensorTagBytes.requireLength(
            gattBytes, 3, sensor: "\(SensorTagSensor.accelerometer) data", characteristic: .sensorTagAccelerometerData)
        self.init(
            rawX: Int8(bitPattern: gattBytes[0]), rawY: Int8(bitPattern: gattBytes[1]),
            rawZ: Int8(bitPattern: gattBytes[2]))
    }

    /// X, Y, Z.
    public var gattBytes: [UInt8] { [rawX, rawY, rawZ].map { UInt8(bitPattern: $0) } }

    /// The acceleration in g: raw / 64 per axis.
    public var g: SensorTagVector {
        SensorTagVector(
            x: Double(rawX) / Self.countsPerG, y: Double(rawY) / Self.countsPerG, z: Double(rawZ) / Self.countsPerG)
    }

    /// The acceleration in m/s² (g × 9.80665).
    public var metersPerSecondSquared: SensorTagVector { Self.standardGravity * g }

    /// `"(0.0, 0.0, 1.0) g"`.
    public var description: String { "\(g) g" }

    /// The simulated device's encoder: each axis rounded to the nearest count (error at most 1/128 g)
    /// and saturated at -128 ... 127 counts (-2 ... +1.984 g), as the sensor saturates.
    ///
    /// - Parameter g: the acceleration the sensor feels, in g.
    public init(g: SensorTagVector) {
        self.init(
            rawX: SensorTagBytes.clampedInt8(g.x * Self.countsPerG),
            rawY: SensorTagBytes.clampedInt8(g.y * Self.countsPerG),
            rawZ: SensorTagBytes.clampedInt8(g.z * Self.countsPerG))
    }
}
