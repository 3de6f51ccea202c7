import Airlink
import AirlinkCore
import Synchronization

/// A TI CC2541 SensorTag, typed: turn each sensor on and off, set its period, read decoded values,
/// and stream the decoded readings of the sensors and keys.
///
/// Carries forward YmsCoreBluetooth's Deanna app. Built on the ``/Airlink/DeviceService``s of the device's
/// ``/Airlink/ConnectionManager`` (one per TI service). The barometer needs the tag's calibration:
/// ``calibration()`` asks the tag for it (configuration 0x02) and keeps it; barometer reads fetch it
/// first when needed.
///
/// ```swift
/// let tag = SensorTagService(connection)
/// try await tag.enable(.humidity)
/// try await tag.setPeriod(.milliseconds(500), for: .humidity)
/// let readings = try await tag.readings(of: [.humidity])
/// ```
public final class SensorTagService: Sendable {
    private let services: DeviceServices
    private let cachedCalibration = Mutex<SensorTagBarometerCalibration?>(nil)

    /// The SensorTag services of a connection's device.
    public init(_ connection: ConnectionManager) {
        services = connection.services
    }

    /// The manager of a sensor's service.
    public func service(_ sensor: SensorTagSensor) -> DeviceService { services.service(sensor.serviceUUID) }

    /// The manager of the Simple Keys service (FFE0).
    public var keysService: DeviceService { services.service(.sensorTagSimpleKeysService) }

    // MARK: Configuration

    /// Turns a sensor on (0x01; the gyroscope's three axes, 0x07).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the write.
    public func enable(_ sensor: SensorTagSensor) async throws(AirlinkError) {
        try await configure(sensor, sensor.enableConfiguration)
    }

    /// Turns a sensor off (0x00): its data read as zeros and it stops notifying.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the write.
    public func disable(_ sensor: SensorTagSensor) async throws(AirlinkError) {
        try await configure(sensor, .off)
    }

    /// Turns a sensor on or off.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the write.
    public func setEnabled(_ enabled: Bool, _ sensor: SensorTagSensor) async throws(AirlinkError) {
        if enabled { try await enable(sensor) } else { try await disable(sensor) }
    }

    /// Writes a configuration byte (see ``SensorTagConfiguration``).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a byte the sensor does not define;
    ///   ``/AirlinkCore/AirlinkError`` from the write.
    public func configure(_ sensor: SensorTagSensor, _ configuration: SensorTagConfiguration) async throws(AirlinkError)
    {
        _ = try configuration.command(for: sensor)
        try await service(sensor).write(configuration, to: sensor.configurationUUID)
    }

    /// Whether a sensor is on, as its configuration reads.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the read.
    public func isEnabled(_ sensor: SensorTagSensor) async throws(AirlinkError) -> Bool {
        let configuration = try await service(sensor).read(SensorTagConfiguration.self, from: sensor.configurationUUID)
        // try?: a configuration byte that names no command of this sensor is not "on"
        return (try? configuration.command(for: sensor)).map { $0 != .disable && $0 != .readCalibration } ?? false
    }

    /// Sets a sensor's measurement period.
    ///
    /// - Parameters:
    ///   - period: a whole number of 10 ms, from the sensor's minimum (``SensorTagSensor/minimumPeriod``)
    ///     to 2.55 s.
    ///   - sensor: the sensor.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the period and the limit, before anything is
    ///   written; ``/AirlinkCore/AirlinkError`` from the write (a tag refuses a period below its minimum with ATT
    ///   error 0x80).
    public func setPeriod(_ period: Duration, for sensor: SensorTagSensor) async throws(AirlinkError) {
        let value = try SensorTagPeriod(period, for: sensor)
        try await service(sensor).write(value, to: sensor.periodUUID)
    }

    /// A sensor's measurement period, as the tag reads it.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the read.
    public func period(of sensor: SensorTagSensor) async throws(AirlinkError) -> Duration {
        try await service(sensor).read(SensorTagPeriod.self, from: sensor.periodUUID).duration
    }

    /// The barometer's calibration: asks the tag for it (writes 0x02 to F000AA42, reads F000AA43, and
    /// writes 0x01 back if the barometer was on) the first time, then keeps it.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if the tag has no usable calibration (it sent
    ///   zeros: c1 and c3 must not be 0); ``/AirlinkCore/AirlinkError`` from the write and read.
    public func calibration() async throws(AirlinkError) -> SensorTagBarometerCalibration {
        if let known = cachedCalibration.withLock({ $0 }) { return known }
        let barometer = service(.barometer)
        let previous = try await barometer.read(
            SensorTagConfiguration.self, from: .sensorTagBarometerConfiguration)
        try await barometer.write(SensorTagConfiguration.readCalibration, to: .sensorTagBarometerConfiguration)
        let calibration = try await barometer.read(
            SensorTagBarometerCalibration.self, from: .sensorTagBarometerCalibration)
        if previous == .on {
            // The configuration now reads 0x02: say again that the sensor is on.
            try await barometer.write(SensorTagConfiguration.on, to: .sensorTagBarometerConfiguration)
        }
        guard calibration.isUsable else {
            throw AirlinkError(
                .invalidArgument,
                "the SensorTag has no barometer calibration: F000AA43 reads c1 = \(calibration.c1), "
                    + "c3 = \(calibration.c3) after configuration 0x02, and both must be above 0. The "
                    + "barometer's pressure cannot be computed on this tag")
        }
        cachedCalibration.withLock { $0 = calibration }
        return calibration
    }

    // MARK: Values

    /// Reads a sensor's data and decodes it.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the read; ``/AirlinkCore/AirlinkError/Code/malformedData`` for a
    ///   wrong length; for the barometer, what ``calibration()`` throws.
    public func read(_ sensor: SensorTagSensor) async throws(AirlinkError) -> SensorTagReading {
        let calibration = sensor == .barometer ? try await calibration() : nil
        let bytes = try await service(sensor).read(sensor.dataUUID)
        return try SensorTagReading(decoding: bytes, of: sensor, calibration: calibration)
    }

    /// Reads the IR temperature (TMP006): object and ambient, °C. Throws as ``read(_:)``.
    public func irTemperature() async throws(AirlinkError) -> SensorTagIRTemperature {
        try await service(.irTemperature).read(SensorTagIRTemperature.self, from: .sensorTagIRTemperatureData)
    }

    /// Reads the humidity sensor (SHT21): temperature, °C, and relative humidity, %. Throws as ``read(_:)``.
    public func humidity() async throws(AirlinkError) -> SensorTagHumidity {
        try await service(.humidity).read(SensorTagHumidity.self, from: .sensorTagHumidityData)
    }

    /// Reads the barometer (T5400): temperature, °C, and pressure, Pa. Throws as ``read(_:)``.
    public func barometer() async throws(AirlinkError) -> SensorTagBarometerReading {
        let calibration = try await calibration()
        let bytes = try await service(.barometer).read(.sensorTagBarometerData)
        return try SensorTagBarometerReading(gattBytes: bytes, calibration: calibration)
    }

    /// Reads the accelerometer (KXTJ9), g. Throws as ``read(_:)``.
    public func accelerometer() async throws(AirlinkError) -> SensorTagAcceleration {
        try await service(.accelerometer).read(SensorTagAcceleration.self, from: .sensorTagAccelerometerData)
    }

    /// Reads the magnetometer (MAG3110), µT. Throws as ``read(_:)``.
    public func magnetometer() async throws(AirlinkError) -> SensorTagMagneticField {
        try await service(.magnetometer).read(SensorTagMagneticField.self, from: .sensorTagMagnetometerData)
    }

    /// Reads the gyroscope (IMU-3000), °/s. Throws as ``read(_:)``.
    public func gyroscope() async throws(AirlinkError) -> SensorTagAngularVelocity {
        try await service(.gyroscope).read(SensorTagAngularVelocity.self, from: .sensorTagGyroscopeData)
    }

    // MARK: Streams

    /// Turns on notifications of the given sensors (and of the keys) and streams their decoded readings
    /// in the order they arrive. The sensors must be on (``enable(_:)``) to send anything.
    ///
    /// The stream ends when the consuming task stops iterating (the observers are then removed) or the
    /// device manager shuts down. Values that do not decode are skipped.
    ///
    /// - Parameters:
    ///   - sensors: the sensors to stream; all by default.
    ///   - keys: whether to include the simple keys.
    /// - Throws: what ``calibration()`` throws if the barometer is included; ``/AirlinkCore/AirlinkError`` from
    ///   enabling notifications.
    public func readings(
        of sensors: [SensorTagSensor] = SensorTagSensor.allCases, keys: Bool = true
    ) async throws(AirlinkError) -> AsyncStream<SensorTagReading> {
        let calibration = sensors.contains(.barometer) ? try await calibration() : nil
        // An AsyncStream, not an EventStream as the layers' event streams are: the observers must be
        // removed when the consumer leaves, and only AsyncStream's onTermination says when it does.
        let (stream, continuation) = AsyncStream.makeStream(of: SensorTagReading.self)
        var tokens: [(DeviceService, ObserverToken)] = []
        for sensor in sensors {
            let manager = service(sensor)
            let token = manager.addObserver(for: sensor.dataUUID) { value in
                // try?: a value that does not decode is no reading; the raw bytes stay on `values(of:)`
                if let reading = try? SensorTagReading(decoding: value.bytes, of: sensor, calibration: calibration) {
                    continuation.yield(reading)
                }
            }
            tokens.append((manager, token))
        }
        if keys {
            let token = keysService.addObserver(for: .sensorTagSimpleKeysData) { value in
                // try?: a value that does not decode is no key state; the raw bytes stay on `values(of:)`
                if let keys = try? value.decoded(as: SensorTagKeys.self) { continuation.yield(.keys(keys)) }
            }
            tokens.append((keysService, token))
        }
        let registered = tokens
        continuation.onTermination = { _ in
            for (manager, token) in registered { manager.removeObserver(token) }
        }
        do throws(AirlinkError) {
            for sensor in sensors { try await service(sensor).setNotifications(.notify, for: sensor.dataUUID) }
            if keys { try await keysService.setNotifications(.notify, for: .sensorTagSimpleKeysData) }
        } catch {
            continuation.finish()
            throw error
        }
        return stream
    }

    /// Turns notifications of the given sensors (and of the keys) off; streams from ``readings(of:keys:)``
    /// then hear nothing more from them.
    ///
    /// - Parameters:
    ///   - sensors: the sensors to stop; all by default.
    ///   - keys: whether to stop the simple keys too.
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the first CCCD write that fails; the ones before it stay off.
    public func stopNotifications(
        of sensors: [SensorTagSensor] = SensorTagSensor.allCases, keys: Bool = true
    ) async throws(AirlinkError) {
        for sensor in sensors { try await service(sensor).setNotifications(.disabled, for: sensor.dataUUID) }
        if keys { try await keysService.setNotifications(.disabled, for: .sensorTagSimpleKeysData) }
    }
}
