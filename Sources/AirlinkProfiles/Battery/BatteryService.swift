import Airlink
import AirlinkCore

/// A battery service, typed: read the level, observe the level as it changes.
///
/// Works with the SIG Battery Service (0x180F, level 0x2A19) and with the thermostat's own
/// (68753A44-…0070, level …0069): see ``Variant``. Built on a ``/Airlink/DeviceService`` of the device's
/// ``/Airlink/ConnectionManager``, so it keeps working across reconnections and on any transport. Every
/// method throws the ``/AirlinkCore/AirlinkError`` that stopped it, as ``ThermostatService``'s do.
///
/// ```swift
/// let battery = BatteryService(connection)
/// print(try await battery.level())
/// for await level in try await battery.levels() { print(level) }
/// ```
public final class BatteryService: Sendable {
    /// Which battery service a device has.
    public enum Variant: Sendable, Hashable {
        /// Battery Service 1.0 (0x180F) with Battery Level (0x2A19).
        case standard
        /// The thermostat's vendor service 68753A44-…0070 with level …0069.
        case thermostat

        /// The service's UUID.
        public var service: BluetoothUUID { self == .standard ? .battery : .thermostatBatteryService }
        /// The level characteristic's UUID.
        public var level: BluetoothUUID { self == .standard ? .batteryLevel : .thermostatBatteryLevel }
    }

    /// The service's manager.
    public let service: DeviceService
    /// Which battery service this is.
    public let variant: Variant

    /// The battery service of a connection's device.
    ///
    /// - Parameters:
    ///   - connection: the device's connection manager.
    ///   - variant: the SIG service (default) or the thermostat's.
    public init(_ connection: ConnectionManager, variant: Variant = .standard) {
        self.variant = variant
        service = connection.services.service(variant.service)
    }

    /// Reads the level.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the read; ``/AirlinkCore/AirlinkError/Code/malformedData`` for a
    ///   value that is not one byte of 0 to 100.
    public func level() async throws(AirlinkError) -> BatteryLevel {
        try await service.read(BatteryLevel.self, from: variant.level)
    }

    /// Turns level notifications on and returns the levels the device notifies from now on.
    ///
    /// The stream survives reconnections (Airlink restores the notifications); a value that is not one byte
    /// of 0 to 100 is skipped and counted (``TypedValues/skippedCount``). Stop iterating to stop observing;
    /// call ``stopNotifications()`` to turn them off on the device.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from enabling notifications (a refused CCCD write is
    ///   ``/AirlinkCore/AirlinkError/Code/attribute`` with the ATT error as its cause); nothing is returned then.
    public func levels() async throws(AirlinkError) -> TypedValues<BatteryLevel> {
        let values = service.values(of: variant.level)
        try await service.setNotifications(.notify, for: variant.level)
        return TypedValues(values) { value throws(AirlinkError) in try value.decoded(as: BatteryLevel.self) }
    }

    /// Turns level notifications off.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the write of the CCCD.
    public func stopNotifications() async throws(AirlinkError) {
        try await service.setNotifications(.disabled, for: variant.level)
    }
}
