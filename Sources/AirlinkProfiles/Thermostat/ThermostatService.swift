import Airlink
import AirlinkCore
import Synchronization

/// The thermostat's Temperature service (68753A44-…0066), typed: read the temperature, set the set
/// point and the unit, observe the temperature as it changes.
///
/// Carries forward WLXBluetoothDevice's `TemperatureService`. Built on a ``/Airlink/DeviceService`` of the
/// device's ``/Airlink/ConnectionManager``, so it keeps working across reconnections and on any transport.
/// The thermostat sends temperatures in its current unit; the service remembers the last unit it read
/// or wrote and labels every reading with it (``ThermostatReading``).
///
/// ```swift
/// let thermostat = ThermostatService(connection)
/// try await thermostat.setSetPoint(22)
/// for await reading in try await thermostat.temperatures() { print(reading) }
/// ```
public final class ThermostatService: Sendable {
    /// The set points the thermostat accepts, in °C: 5 to 35, as a room thermostat's dial.
    /// The simulated thermostat refuses others with Value Not Allowed (0x13).
    public static let setPointRange: ClosedRange<Double> = 5...35

    /// The Temperature service's manager.
    public let service: DeviceService
    private let knownUnit = Mutex<TemperatureUnit?>(nil)

    /// The Temperature service of a connection's device.
    ///
    /// - Parameter connection: the device's connection manager.
    public init(_ connection: ConnectionManager) {
        service = connection.services.service(.thermostatTemperatureService)
    }

    /// Reads the unit the thermostat reports temperatures in.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the read; ``/AirlinkCore/AirlinkError/Code/malformedData`` for a
    ///   byte other than 0 or 1.
    public func unit() async throws(AirlinkError) -> TemperatureUnit {
        let unit = try await service.read(TemperatureUnit.self, from: .thermostatUnit)
        knownUnit.withLock { $0 = unit }
        return unit
    }

    /// Sets the unit of the thermostat's readings.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the write.
    public func setUnit(_ unit: TemperatureUnit) async throws(AirlinkError) {
        try await service.write(unit, to: .thermostatUnit)
        knownUnit.withLock { $0 = unit }
    }

    /// Reads the room temperature.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the reads; ``/AirlinkCore/AirlinkError/Code/malformedData`` if the
    ///   value is not two bytes.
    public func temperature() async throws(AirlinkError) -> ThermostatReading {
        let unit = try await currentUnit()
        let temperature = try await service.read(Temperature.self, from: .thermostatTemperature)
        return ThermostatReading(temperature: temperature, unit: unit)
    }

    /// Sets the set point: the room temperature then moves toward it.
    ///
    /// - Parameters:
    ///   - degrees: the set point.
    ///   - unit: the unit of `degrees`; it is converted to the thermostat's current unit before writing.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` outside ``setPointRange`` (naming the value and the
    ///   range), before anything is written; ``/AirlinkCore/AirlinkError`` from the write.
    public func setSetPoint(_ degrees: Double, unit: TemperatureUnit = .celsius) async throws(AirlinkError) {
        let celsius = unit.toCelsius(degrees)
        guard degrees.isFinite, Self.setPointRange.contains(celsius) else {
            let low = unit.fromCelsius(Self.setPointRange.lowerBound)
            let high = unit.fromCelsius(Self.setPointRange.upperBound)
            throw AirlinkError(
                .invalidArgument,
                "the set point \(degrees)\(unit) is outside what the thermostat accepts, \(low)\(unit) to "
                    + "\(high)\(unit); pass a value in that range")
        }
        let deviceUnit = try await currentUnit()
        try await service.write(Temperature(degrees: deviceUnit.fromCelsius(celsius)), to: .thermostatTemperature)
    }

    /// Turns temperature notifications on and returns the readings the thermostat notifies from now on.
    ///
    /// The stream survives reconnections (Airlink restores the notifications). Stop iterating to stop
    /// observing; call ``stopNotifications()`` to turn them off on the device.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from enabling notifications.
    public func temperatures() async throws(AirlinkError) -> TypedValues<ThermostatReading> {
        let values = service.values(of: .thermostatTemperature)
        _ = try await currentUnit()
        try await service.setNotifications(.notify, for: .thermostatTemperature)
        return TypedValues(values) { [self] value throws(AirlinkError) in
            ThermostatReading(
                temperature: try value.decoded(as: Temperature.self), unit: self.knownUnit.withLock { $0 } ?? .celsius)
        }
    }

    /// Turns temperature notifications off.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the write of the CCCD.
    public func stopNotifications() async throws(AirlinkError) {
        try await service.setNotifications(.disabled, for: .thermostatTemperature)
    }

    private func currentUnit() async throws(AirlinkError) -> TemperatureUnit {
        if let unit = knownUnit.withLock({ $0 }) { return unit }
        return try await unit()
    }
}
