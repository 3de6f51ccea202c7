import AirlinkCore

/// A sensor's measurement period, as its period characteristic carries it: one byte, units of 10 ms.
///
/// The CC2541 firmware 1.5 accepts 0x0A (100 ms) to 0xFF (2.55 s), 0x1E (300 ms) for the IR sensor; see
/// ``SensorTagSensor/minimumPeriod``. Decoding takes any byte (the format allows it); ``validated(for:)``
/// applies a sensor's limit, as the simulated tag does when a client writes the period.
///
/// ```swift
/// let period = try SensorTagPeriod(.milliseconds(500), for: .accelerometer)  // 0x32
/// try SensorTagPeriod(gattBytes: [0x05]).validated(for: .humidity)           // throws: 50 ms < 100 ms
/// ```
public struct SensorTagPeriod: GATTValue, Hashable, Comparable, CustomStringConvertible {
    /// The resolution of the period characteristic, 10 ms.
    public static let resolution: Duration = .milliseconds(10)

    /// The longest period one byte can say, 2.55 s.
    public static let maximum: Duration = .milliseconds(2550)

    /// The period in units of 10 ms, as carried.
    public var units: UInt8

    /// Creates a period from its units of 10 ms, without checking any sensor's limit.
    ///
    /// - Parameter units: the byte the characteristic carries.
    public init(units: UInt8) { self.units = units }

    /// Creates a period for a sensor, checking its limits.
    ///
    /// - Parameters:
    ///   - duration: a whole number of 10 ms from the sensor's minimum to 2.55 s.
    ///   - sensor: the sensor whose limit applies.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the value and the limit it breaks.
    public init(_ duration: Duration, for sensor: SensorTagSensor) throws(AirlinkError) {
        let milliseconds = duration.nanoseconds / 1_000_000
        guard duration.nanoseconds % 10_000_000 == 0 else {
            let lower = max(10, milliseconds / 10 * 10)
            throw AirlinkError(
                .invalidArgument,
                "the \(sensor) period \(duration.text) is not a whole number of 10 ms; the period characteristic "
                    + "counts 10 ms units (try \(lower) ms)")
        }
        guard duration <= Self.maximum else {
            throw AirlinkError(
                .invalidArgument,
                "the \(sensor) period \(duration.text) is above the limit of 2550 ms (one byte of 10 ms units)")
        }
        self.init(units: UInt8(clamping: max(0, milliseconds / 10)))
        try validated(for: sensor)
    }

    /// The period as a duration: `units` × 10 ms.
    public var duration: Duration { .milliseconds(Int(units) * 10) }

    /// The sensor's default period (1 s, or 2 s for the magnetometer), as the firmware sets it.
    ///
    /// - Parameter sensor: the sensor.
    public static func defaultPeriod(for sensor: SensorTagSensor) -> SensorTagPeriod {
        SensorTagPeriod(units: UInt8(sensor.defaultPeriod.nanoseconds / 10_000_000))
    }

    /// Returns this period if the sensor accepts it.
    ///
    /// - Parameter sensor: the sensor whose minimum applies.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if the period is below
    ///   ``SensorTagSensor/minimumPeriod``, naming the value and the limit.
    @discardableResult
    public func validated(for sensor: SensorTagSensor) throws(AirlinkError) -> SensorTagPeriod {
        guard duration >= sensor.minimumPeriod else {
            let limit = sensor.minimumPeriod.nanoseconds / 1_000_000
            throw AirlinkError(
                .invalidArgument,
                "the \(sensor) period \(Int(units) * 10) ms (0x\(String(units, radix: 16, uppercase: true))) "
                    + "is below the sensor's minimum of \(limit) ms "
                    + "(0x\(String(limit / 10, radix: 16, uppercase: true))); "
                    + "write \(limit) ms or more (\(limit / 10) or more in the characteristic's 10 ms units)")
        }
        return self
    }

    /// Decodes the one-byte period.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` if there is not exactly one byte.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        self.units = try SensorTagByte.only(gattBytes, "a SensorTag period (units of 10 ms)")
    }

    /// `[units]`: the period in 10 ms units, as the period characteristic takes it.
    public var gattBytes: [UInt8] { [units] }

    /// `"500 ms"`.
    public var description: String { "\(Int(units) * 10) ms" }

    /// Orders periods by length.
    public static func < (lhs: SensorTagPeriod, rhs: SensorTagPeriod) -> Bool { lhs.units < rhs.units }
}
