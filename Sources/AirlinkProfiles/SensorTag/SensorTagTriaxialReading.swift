import AirlinkCore

/// What sets one of the SensorTag's 16-bit three-axis sensors apart (``SensorTagAxisScale``):
/// ``SensorTagGyroscopeScale`` and ``SensorTagMagnetometerScale`` conform.
public protocol SensorTagTriaxialScale: Sendable {
    /// The sensor, its data characteristic, its unit and what a count is worth.
    static var scale: SensorTagAxisScale { get }
}

/// The sensor, data characteristic and unit of a SensorTag sensor with three 16-bit axes (made in this
/// module, for its sensors).
public struct SensorTagAxisScale: Sendable {
    /// The sensor, named in decoding errors.
    public var sensor: SensorTagSensor
    /// The data characteristic, named in decoding errors.
    public var dataCharacteristic: BluetoothUUID
    /// The physical units per count (°/s, µT).
    public var unitsPerCount: Double
    /// The unit's symbol, for descriptions (`°/s`, `µT`).
    public var unitSymbol: String
}

/// A reading of a SensorTag sensor with three signed 16-bit axes: ``SensorTagAngularVelocity`` (the
/// gyroscope) and ``SensorTagMagneticField`` (the magnetometer).
///
/// Layout, 6 bytes: X LSB, MSB, Y LSB, MSB, Z LSB, MSB, each signed; the physical value of an axis is
/// raw × `unitsPerCount`.
public struct SensorTagTriaxialReading<Scale: SensorTagTriaxialScale>: GATTValue, Hashable, CustomStringConvertible {
    /// X in sensor counts (signed 16-bit); × `unitsPerCount` gives the physical value.
    public var rawX: Int16
    /// Y in sensor counts (signed 16-bit).
    public var rawY: Int16
    /// Z in sensor counts (signed 16-bit).
    public var rawZ: Int16

    /// Creates a reading from the three counts.
    public init(rawX: Int16, rawY: Int16, rawZ: Int16) {
        (self.rawX, self.rawY, self.rawZ) = (rawX, rawY, rawZ)
    }

    /// Decodes the 6 bytes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for any length but 6.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try SensorTagBytes.requireLength(
            gattBytes, 6, sensor: "\(Scale.scale.sensor) data", characteristic: Scale.scale.dataCharacteristic)
        self.init(
            rawX: SensorTagBytes.int16(gattBytes, at: 0), rawY: SensorTagBytes.int16(gattBytes, at: 2),
            rawZ: SensorTagBytes.int16(gattBytes, at: 4))
    }

    /// X, Y, Z, little-endian.
    public var gattBytes: [UInt8] { [rawX, rawY, rawZ].flatMap { SensorTagBytes.bytes($0) } }

    /// The reading in the sensor's unit: raw × `unitsPerCount` per axis.
    public var scaled: SensorTagVector {
        SensorTagVector(
            x: Double(rawX) * Scale.scale.unitsPerCount, y: Double(rawY) * Scale.scale.unitsPerCount,
            z: Double(rawZ) * Scale.scale.unitsPerCount)
    }

    /// `"(1.5, 0.0, -3.2) °/s"`, `"(20.0, 0.0, -44.0) µT"`.
    public var description: String { "\(scaled) \(Scale.scale.unitSymbol)" }

    /// The simulated device's encoder: each axis rounded to the nearest count (an error of at most half
    /// a count) and saturated at the 16-bit range.
    ///
    /// - Parameter scaled: the value in the sensor's unit.
    public init(scaled: SensorTagVector) {
        self.init(
            rawX: SensorTagBytes.clampedInt16(scaled.x / Scale.scale.unitsPerCount),
            rawY: SensorTagBytes.clampedInt16(scaled.y / Scale.scale.unitsPerCount),
            rawZ: SensorTagBytes.clampedInt16(scaled.z / Scale.scale.unitsPerCount))
    }
}
