import Airlink
import AirlinkBlueZ
import AirlinkCore
import Synchronization

extension InspectCommand {
    /// Publishes the `--value`s on a real adapter and prints what centrals write and subscribe to,
    /// until interrupted.
    func runOnBlueZ(adapter: String) async throws {
        let environment = AirlinkEnvironment.live()
        let peripheral = try BlueZPeripheral(adapter: adapter, environment: environment)
        let inspector = Inspector(name: name, transport: peripheral, environment: environment)
        let store = PublishedValues()
        for text in value {
            let argument = try InspectArgument(parsing: text)
            store.set(argument.identifier, argument.value)
            try store.inspect(argument.identifier, argument.value.type, in: inspector)
        }
        let writes = inspector.events()
        let centrals = peripheral.peripheralEvents()
        try await inspector.start()
        print("inspector \"\(name)\" on \(peripheral.name) publishes \(inspector.identifiers.joined(separator: ", "))")
        let printer = Task {
            for await event in centrals {
                if case .subscriptionChanged(_, _, let characteristic, let mode) = event {
                    print("subscription to \(inspector.identifier(of: characteristic) ?? "\(characteristic)"): \(mode)")
                } else {
                    print(event)
                }
            }
        }
        for await event in writes { print(event) }
        printer.cancel()
    }
}

/// The values `airlink inspect --value` publishes, changed by centrals' writes.
final class PublishedValues: Sendable {
    private let values = Mutex<[String: InspectedValue]>([:])

    func set(_ identifier: String, _ value: InspectedValue) { values.withLock { $0[identifier] = value } }
    func get(_ identifier: String) -> InspectedValue? { values.withLock { $0[identifier] } }

    /// Inspects a value as its parsed type, readable, writable and notifying.
    func inspect(_ identifier: String, _ type: InspectedType, in inspector: Inspector) throws(AirlinkError) {
        let options: InspectionOptions = [.read, .write, .notify]
        switch get(identifier) {
        case .bool(let initial)?:
            try inspector.inspect(
                identifier, options: options,
                get: { [self] in (try? Bool(inspected: get(identifier) ?? .bool(initial))) ?? initial },
                set: { [self] in set(identifier, $0.inspectedValue) })
        case .signed(let initial, _)?:
            try inspector.inspect(
                identifier, options: options,
                get: { [self] in (try? Int64(inspected: get(identifier) ?? .signed(initial, bits: 64))) ?? initial },
                set: { [self] in set(identifier, $0.inspectedValue) })
        case .double(let initial)?:
            try inspector.inspect(
                identifier, options: options,
                get: { [self] in (try? Double(inspected: get(identifier) ?? .double(initial))) ?? initial },
                set: { [self] in set(identifier, $0.inspectedValue) })
        case .string(let initial)?:
            try inspector.inspect(
                identifier, options: options,
                get: { [self] in (try? String(inspected: get(identifier) ?? .string(initial))) ?? initial },
                set: { [self] in set(identifier, $0.inspectedValue) })
        default:
            throw AirlinkError(.invalidArgument, "--value \(identifier): unsupported type \(type)")
        }
    }
}
