import AirlinkCore
import Synchronization

/// A service of a remote device, as an object: discover its characteristics, find one by UUID.
///
/// Named `RemoteService` rather than `Service`, which is the peripheral DSL's (AirlinkCore). Built on
/// the device's ``DeviceService`` for the service's UUID.
public final class RemoteService: Sendable {
    /// The service's UUID.
    public let uuid: BluetoothUUID
    /// The service manager underneath (the layers).
    public let manager: DeviceService
    let watchdog: WatchdogRunner
    private let discovered = Mutex<[RemoteCharacteristic]>([])

    init(manager: DeviceService, watchdog: WatchdogRunner) {
        self.uuid = manager.uuid
        self.manager = manager
        self.watchdog = watchdog
    }

    /// The identifier of the device that holds the service.
    public var device: DeviceID { manager.device }

    /// Discovers the service's characteristics: all, or those with the given UUIDs.
    ///
    /// - Parameter uuids: the characteristics of interest, or `nil` for all.
    /// - Returns: the characteristics found, in handle order.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` from the watchdog; what
    ///   ``DeviceService/discoverCharacteristics(_:)`` throws.
    @discardableResult
    public func discoverCharacteristics(_ uuids: [BluetoothUUID]? = nil) async throws(AirlinkError)
        -> [RemoteCharacteristic]
    {
        let manager = self.manager
        let found = try await watchdog.operation("discover characteristics of \(uuid)") {
            () async throws(AirlinkError) in
            try await manager.discoverCharacteristics(uuids)
        }
        return discovered.withLock { discovered in
            found.map { characteristic in
                if let known = discovered.first(where: { $0.uuid == characteristic.uuid }) {
                    known.update(characteristic)
                    return known
                }
                let object = RemoteCharacteristic(characteristic, manager: manager, watchdog: watchdog)
                discovered.append(object)
                return object
            }
        }
    }

    /// The characteristics discovered so far.
    public var characteristics: [RemoteCharacteristic] { discovered.withLock { $0 } }

    /// A discovered characteristic by UUID, or `nil` if it was not discovered.
    public func characteristic(_ uuid: BluetoothUUID) -> RemoteCharacteristic? {
        discovered.withLock { $0.first { $0.uuid == uuid } }
    }
}
