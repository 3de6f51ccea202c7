import AirlinkCore
import Synchronization

/// What characteristic behaviours see when BlueZ serves the app's database: the values the
/// application object stores, the environment's clock and random source, and a state.
final class BlueZPeripheralContext: PeripheralContext, Sendable {
    let id: DeviceID
    let environment: AirlinkEnvironment
    private let storage = Mutex(PeripheralState())
    private let application = Mutex<BlueZGATTApplication?>(nil)

    init(id: DeviceID, environment: AirlinkEnvironment) {
        self.id = id
        self.environment = environment
    }

    func attach(_ application: BlueZGATTApplication?) { self.application.withLock { $0 = application } }

    var now: AirlinkInstant { environment.clock.now }
    var random: any RandomSource { environment.random }
    var state: PeripheralState {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    private func object(_ uuid: BluetoothUUID, _ service: BluetoothUUID?) throws(AirlinkError)
        -> (BlueZGATTApplication, BlueZGATTApplication.CharacteristicObject)
    {
        guard let application = application.withLock({ $0 }), let object = application.characteristic(uuid, in: service)
        else { throw AirlinkError(.characteristicNotFound, "the published database has no characteristic \(uuid)") }
        return (application, object)
    }

    func bytes(of characteristic: BluetoothUUID, in service: BluetoothUUID?) throws(AirlinkError) -> [UInt8] {
        let (application, object) = try object(characteristic, service)
        return application.value(at: object.path)
    }

    func setBytes(_ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID?) throws(AirlinkError) {
        guard bytes.count <= 512 else {
            throw AirlinkError(
                .invalidArgument, "a value holds at most 512 bytes; \(characteristic) got \(bytes.count)")
        }
        let (application, object) = try object(characteristic, service)
        application.store(bytes, at: object.path, notify: true)
    }

    func notify(_ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID?) throws(AirlinkError) {
        let (application, object) = try object(characteristic, service)
        guard object.spec.properties.canSubscribe else {
            throw AirlinkError(
                .operationNotSupported, "characteristic \(characteristic) neither notifies nor indicates")
        }
        let stored = application.value(at: object.path)
        application.store(bytes, at: object.path, notify: true)
        application.store(stored, at: object.path, notify: false)
    }

    func schedule(after delay: Duration, _ body: @escaping @Sendable (any PeripheralContext) -> Void) {
        environment.spawn { [self] in
            do { try await environment.clock.sleep(for: delay) } catch { return }  // cancelled: the app went away
            body(self)
        }
    }

    func log(_ text: String) { environment.logger.info("\(id) \(text)") }
}
