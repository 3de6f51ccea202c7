import Airlink
import AirlinkCore
import Synchronization

/// A battery service, typed: read the level, turn its notifications on and off, observe the level.
///
/// Works with the SIG Battery Service (0x180F, level 0x2A19) and with the thermostat's own
/// (68753A44-…0070, level …0069): see ``Variant``. Carries forward WLXBluetoothDevice's
/// `BatteryService`: ``isNotifying`` always says what the device was last told successfully, so when
/// enabling fails it stays `false` and the ``setErrorHandler(_:)`` handler hears why.
///
/// ```swift
/// let battery = BatteryService(connection)
/// battery.setErrorHandler { error in print("battery: \(error)") }
/// let token = battery.addLevelObserver { level in print(level) }
/// await battery.setNotifying(true)
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
    private let state = Mutex(State())

    private struct State {
        var notifying = false
        var errorHandler: (@Sendable (AirlinkError) -> Void)?
    }

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

    /// Whether level notifications are on: `true` only after the device accepted enabling them.
    public var isNotifying: Bool { state.withLock { $0.notifying } }

    /// Sets the handler that hears why turning notifications on or off failed.
    ///
    /// - Parameter handler: called with the error, or `nil` to remove it.
    public func setErrorHandler(_ handler: (@Sendable (AirlinkError) -> Void)?) {
        state.withLock { $0.errorHandler = handler }
    }

    /// Turns level notifications on or off, without throwing: on failure ``isNotifying`` keeps its
    /// value (so it stays `false` when enabling failed) and the error handler is called.
    ///
    /// - Parameter enabled: on or off.
    /// - Returns: ``isNotifying`` afterwards.
    @discardableResult
    public func setNotifying(_ enabled: Bool) async -> Bool {
        do {
            try await service.setNotifications(enabled ? .notify : .disabled, for: variant.level)
            state.withLock { $0.notifying = enabled }
        } catch {
            let handler = state.withLock { $0.errorHandler }
            handler?(error)
        }
        return isNotifying
    }

    /// Adds an observer of the notified levels; values that do not decode are skipped.
    ///
    /// Observing does not turn notifications on: call ``setNotifying(_:)`` too.
    ///
    /// - Parameter body: called with each level, one at a time, in order.
    /// - Returns: a token for ``removeLevelObserver(_:)``.
    @discardableResult
    public func addLevelObserver(_ body: @escaping @Sendable (BatteryLevel) async -> Void) -> ObserverToken {
        service.addObserver(for: variant.level) { value in
            guard let level = try? value.decoded(as: BatteryLevel.self) else { return }
            await body(level)
        }
    }

    /// Removes a level observer.
    public func removeLevelObserver(_ token: ObserverToken) {
        service.removeObserver(token)
    }

    /// The notified levels as an `AsyncSequence` (notifications must be on, ``setNotifying(_:)``).
    public func levels() -> TypedValues<BatteryLevel> {
        TypedValues(service.values(of: variant.level)) { value throws(AirlinkError) in try value.decoded() }
    }
}
