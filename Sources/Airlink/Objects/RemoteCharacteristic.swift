import AirlinkCore
import Synchronization

/// A characteristic of a remote device, as an object: read, write (with and without response),
/// notifications on and off with an async sequence of values, descriptors.
///
/// Named `RemoteCharacteristic` rather than `Characteristic`, which is the peripheral DSL's
/// (AirlinkCore). Every operation goes through the service's ``DeviceService`` by UUID, under the
/// central's ``Watchdog``.
public final class RemoteCharacteristic: Sendable {
    /// The characteristic's UUID.
    public let uuid: BluetoothUUID
    /// The service's UUID.
    public let serviceUUID: BluetoothUUID
    let manager: DeviceService
    let watchdog: WatchdogRunner
    private let state: Mutex<State>

    private struct State {
        var declaration: GATTCharacteristic
        var descriptors: [RemoteDescriptor] = []
    }

    init(_ declaration: GATTCharacteristic, manager: DeviceService, watchdog: WatchdogRunner) {
        self.uuid = declaration.uuid
        self.serviceUUID = manager.uuid
        self.manager = manager
        self.watchdog = watchdog
        self.state = Mutex(State(declaration: declaration))
    }

    func update(_ declaration: GATTCharacteristic) { state.withLock { $0.declaration = declaration } }

    /// The declaration as last discovered (properties, handles).
    public var declaration: GATTCharacteristic { state.withLock { $0.declaration } }

    /// The characteristic's properties.
    public var properties: CharacteristicProperties { declaration.properties }

    /// Reads the value.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` from the watchdog; what ``DeviceService/read(_:)`` throws.
    public func read() async throws(AirlinkError) -> [UInt8] {
        let (manager, uuid) = (self.manager, self.uuid)
        return try await watchdog.operation("read \(uuid)") { () async throws(AirlinkError) in
            try await manager.read(uuid)
        }
    }

    /// Reads the value as a typed ``/AirlinkCore/GATTValue``.
    ///
    /// - Throws: what ``read()`` throws; ``/AirlinkCore/AirlinkError/Code/malformedData`` if the bytes do not fit.
    public func read<Value: GATTValue>(as type: Value.Type) async throws(AirlinkError) -> Value {
        try Value(gattBytes: try await read())
    }

    /// Writes the value.
    ///
    /// - Parameters:
    ///   - bytes: the value.
    ///   - type: with response (default) or without.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` from the watchdog; what
    ///   ``DeviceService/write(_:to:type:)-([UInt8],_,_)`` throws.
    public func write(_ bytes: [UInt8], type: WriteType = .withResponse) async throws(AirlinkError) {
        let (manager, uuid) = (self.manager, self.uuid)
        try await watchdog.operation("write \(uuid)") { () async throws(AirlinkError) in
            try await manager.write(bytes, to: uuid, type: type)
        }
    }

    /// Writes a typed value.
    ///
    /// - Throws: what ``write(_:type:)`` throws.
    public func write(_ value: some GATTValue, type: WriteType = .withResponse) async throws(AirlinkError) {
        try await write(value.gattBytes, type: type)
    }

    /// Turns notifications (or indications, if it only indicates) on or off.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` from the watchdog; what
    ///   ``DeviceService/setNotifications(_:for:)`` throws.
    public func setNotifying(_ enabled: Bool) async throws(AirlinkError) {
        let (manager, uuid, properties) = (self.manager, self.uuid, self.properties)
        let mode: NotificationMode =
            !enabled ? .disabled : properties.contains(.indicate) && !properties.contains(.notify) ? .indicate : .notify
        try await watchdog.operation(enabled ? "enable notifications of \(uuid)" : "disable notifications of \(uuid)") {
            () async throws(AirlinkError) in
            try await manager.setNotifications(mode, for: uuid)
        }
    }

    /// Whether notifications or indications are on (as the app last set them successfully).
    public var isNotifying: Bool { manager.notificationMode(of: uuid) != .disabled }

    /// The values notified from now on, as an `AsyncSequence` (turn them on with ``setNotifying(_:)``).
    public func values() -> CharacteristicValues { manager.values(of: uuid) }

    /// Turns notifications on and returns the values notified from now on.
    ///
    /// - Throws: what ``setNotifying(_:)`` throws.
    public func notifications() async throws(AirlinkError) -> CharacteristicValues {
        let values = self.values()
        try await setNotifying(true)
        return values
    }

    /// Discovers the characteristic's descriptors.
    ///
    /// - Returns: the descriptors, in handle order.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` from the watchdog;
    ///   ``/AirlinkCore/AirlinkError/Code/notConnected``, ``/AirlinkCore/AirlinkError/Code/characteristicNotFound``,
    ///   what the transport's discovery throws.
    @discardableResult
    public func discoverDescriptors() async throws(AirlinkError) -> [RemoteDescriptor] {
        let (manager, uuid) = (self.manager, self.uuid)
        let found = try await watchdog.operation("discover descriptors of \(uuid)") { () async throws(AirlinkError) in
            try await manager.discoverDescriptors(of: uuid)
        }
        let objects = found.map { RemoteDescriptor($0, characteristic: uuid, manager: manager, watchdog: watchdog) }
        state.withLock { $0.descriptors = objects }
        return objects
    }

    /// The descriptors discovered so far.
    public var descriptors: [RemoteDescriptor] { state.withLock { $0.descriptors } }

    /// A discovered descriptor by UUID, or `nil`.
    public func descriptor(_ uuid: BluetoothUUID) -> RemoteDescriptor? {
        state.withLock { $0.descriptors.first { $0.uuid == uuid } }
    }
}
