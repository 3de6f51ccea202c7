import AirlinkCore
import Synchronization

/// Publishes an app's values over Bluetooth in three steps: name it, inspect values, start.
///
/// ```swift
/// let enabled = Mutex(true)
/// let inspector = Inspector(name: "Test Server", transport: radio, environment: environment)
/// try inspector.inspect("temperature", initialValue: .double(21.5), options: [.read, .notify])
/// try inspector.inspect(
///     "enabled", options: [.read, .write],
///     get: { enabled.withLock { $0 } }, set: { new in enabled.withLock { $0 = new } })
/// try await inspector.start()
/// ```
///
/// Each value is a characteristic of the inspector service whose User Description (0x2901) holds its
/// identifier and whose UUID carries its type (``InspectorLayout``, Docs/Inspector.md). Only what was
/// inspected is reachable. A central's write is decoded as the value's type before anything changes: a
/// wrong length is refused with Invalid Attribute Value Length (0x0D), a wrong value with Value Not
/// Allowed (0x13), a value inspected without `.write` with Write Not Permitted (0x03).
public final class Inspector: Sendable {
    /// The name it advertises and serves (GAP Device Name).
    public let name: String
    let transport: any PeripheralTransport
    let environment: AirlinkEnvironment
    let state = Mutex(State())
    /// The streams of ``events()``, in the order they were asked for.
    let broadcaster = Broadcaster<InspectorEvent>()

    struct Entry: Sendable {
        var identifier: String
        var type: InspectedType
        var options: InspectionOptions
        var uuid: BluetoothUUID
        var read: @Sendable () -> [UInt8]
        var write: (@Sendable ([UInt8]) throws(ATTRefusal) -> InspectedValue)?
        /// The value the inspector keeps, for values inspected with ``Inspector/inspect(_:initialValue:options:)``.
        var stored: StoredInspectedValue?
    }

    struct State {
        var entries: [Entry] = []
        var isRunning = false
        /// How it answers centrals that pair (``Inspector/setSecurity(_:)``); `nil` leaves the transport's.
        var security: PeripheralRoleSecurity?
    }

    /// Creates an inspector; nothing is on air until ``start()``.
    ///
    /// - Parameters:
    ///   - name: the advertised name, at most 19 UTF-8 bytes (checked by ``start()``).
    ///   - transport: the adapter's peripheral role.
    ///   - environment: where change notifications run.
    public init(name: String, transport: any PeripheralTransport, environment: AirlinkEnvironment) {
        self.name = name
        self.transport = transport
        self.environment = environment
    }

    /// The identifiers inspected so far, in order.
    public var identifiers: [String] { state.withLock { $0.entries.map(\.identifier) } }

    /// Whether it is on air.
    public var isRunning: Bool { state.withLock { $0.isRunning } }

    /// The identifier of a characteristic, for ``/AirlinkCore/PeripheralEvent``s of the transport.
    public func identifier(of characteristic: BluetoothUUID) -> String? {
        state.withLock { state in state.entries.first { $0.uuid == characteristic }?.identifier }
    }

    /// A new stream of the writes centrals make (accepted and refused); it ends when the inspector
    /// is released.
    public func events() -> EventStream<InspectorEvent> { broadcaster.subscribe() }

    func emit(_ event: InspectorEvent) { broadcaster.yield(event) }

    /// Inspects a value computed by closures.
    ///
    /// Call ``valueDidChange(_:)`` to notify subscribers of a change (a value inspected from an
    /// `@Observable` object notifies by itself: see ``inspect(_:of:_:options:)``).
    ///
    /// - Parameters:
    ///   - identifier: the name centrals use, unique, 1 to 512 UTF-8 bytes.
    ///   - options: `.read`, `.write`, `.notify` (`[.read, .notify]` by default).
    ///   - get: the current value.
    ///   - set: stores a value a central wrote, already checked against `Value`; required with `.write`.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for an empty, too long or duplicate identifier, no
    ///   options, `.write` without `set`, or a current value over 512 bytes;
    ///   ``/AirlinkCore/AirlinkError/Code/operationInProgress`` once started (stop first).
    public func inspect<Value: InspectableValue>(
        _ identifier: String, options: InspectionOptions = [.read, .notify], get: @escaping @Sendable () -> Value,
        set: (@Sendable (Value) -> Void)? = nil
    ) throws(AirlinkError) {
        let read: @Sendable () -> [UInt8] = { get().inspectedValue.bytes }
        try add(identifier, type: Value.inspectedType, options: options, read: read, write: set.map(Self.writer))
    }

    /// Decodes written bytes as `Value` and stores the value.
    static func writer<Value: InspectableValue>(
        _ set: @escaping @Sendable (Value) -> Void
    ) -> @Sendable ([UInt8]) throws(ATTRefusal) -> InspectedValue {
        { (bytes: [UInt8]) throws(ATTRefusal) -> InspectedValue in
            let inspected = try InspectedValue(decoding: bytes, as: Value.inspectedType)
            set(try Value(inspected: inspected))
            return inspected
        }
    }

    func add(
        _ identifier: String, type: InspectedType, options: InspectionOptions, read: @escaping @Sendable () -> [UInt8],
        write: (@Sendable ([UInt8]) throws(ATTRefusal) -> InspectedValue)?, stored: StoredInspectedValue? = nil
    ) throws(AirlinkError) {
        func invalid(_ text: String) -> AirlinkError {
            AirlinkError(.invalidArgument, "cannot inspect \"\(identifier.prefix(40))\": \(text)")
        }
        let length = identifier.utf8.count
        guard length > 0 else { throw invalid("the identifier is empty; give each value a name") }
        guard length <= InspectorLayout.maximumIdentifierLength else {
            throw invalid(
                "the identifier is \(length) bytes, over the \(InspectorLayout.maximumIdentifierLength) a User "
                    + "Description holds (Core Spec Vol 3, Part F, 3.2.9); shorten it")
        }
        guard !options.isDisjoint(with: [.read, .write, .notify]) else {
            throw invalid("no options; pass .read, .write or .notify")
        }
        guard !options.contains(.write) || write != nil else {
            throw invalid("the .write option needs a setter; pass set: or a writable key path")
        }
        let size = read().count
        guard size <= 512 else {
            throw invalid(
                "its value is \(size) bytes, over the 512 a characteristic holds (Core Spec Vol 3, Part F, 3.2.9)")
        }
        try state.withLock { (state: inout State) throws(AirlinkError) in
            guard !state.isRunning else {
                throw AirlinkError(
                    .operationInProgress, "cannot inspect \"\(identifier)\" while \"\(name)\" runs; stop it first")
            }
            guard !state.entries.contains(where: { $0.identifier == identifier }) else {
                throw invalid("another value has this identifier; give each its own")
            }
            guard state.entries.count < InspectorLayout.maximumValueCount else {
                throw invalid("an inspector holds at most \(InspectorLayout.maximumValueCount) values")
            }
            let uuid = InspectorLayout.characteristicUUID(index: state.entries.count, type: type)
            state.entries.append(
                Entry(
                    identifier: identifier, type: type, options: options, uuid: uuid, read: read,
                    write: options.contains(.write) ? write : nil, stored: stored))
        }
    }

    /// Tells subscribers that a value changed: its current value is notified.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for an identifier never inspected or a value
    ///   over 512 bytes; ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` for a value inspected without
    ///   `.notify`; what the transport throws. Does nothing while stopped.
    public func valueDidChange(_ identifier: String) async throws(AirlinkError) {
        let (entry, running) = state.withLock { state in
            (state.entries.first { $0.identifier == identifier }, state.isRunning)
        }
        guard let entry else {
            throw AirlinkError(.invalidArgument, "no value \"\(identifier)\" is inspected; inspect it first")
        }
        guard entry.options.contains(.notify) else {
            throw AirlinkError(
                .operationNotSupported, "\"\(identifier)\" was inspected without .notify; add the option to notify it")
        }
        guard running else { return }
        let bytes = entry.read()
        guard bytes.count <= 512 else {
            throw AirlinkError(
                .invalidArgument, "\"\(identifier)\" is now \(bytes.count) bytes, over the 512 a characteristic holds")
        }
        try await transport.updateValue(bytes, of: entry.uuid, in: InspectorLayout.serviceUUID)
    }

    /// Sets how the inspector answers centrals that pair, for values inspected with `.encryptionRequired` or
    /// `.authenticationRequired`; applied by ``start()`` (without it, the transport's: Just Works on the
    /// virtual radio, bluetoothd's own agent on BlueZ).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/operationInProgress`` once started (stop first).
    public func setSecurity(_ security: PeripheralRoleSecurity) throws(AirlinkError) {
        try state.withLock { (state: inout State) throws(AirlinkError) in
            guard !state.isRunning else {
                throw AirlinkError(
                    .operationInProgress, "cannot change how \"\(name)\" pairs while it runs; stop it first")
            }
            state.security = security
        }
    }

    /// Puts the values on air: publishes the inspector service and advertises the name.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a name that is empty or over 19 UTF-8 bytes;
    ///   ``/AirlinkCore/AirlinkError/Code/operationInProgress`` if it runs; what the transport throws.
    public func start() async throws(AirlinkError) {
        let length = name.utf8.count
        guard length > 0, length <= InspectorLayout.maximumNameLength else {
            throw AirlinkError(
                .invalidArgument,
                "the inspector name \"\(name)\" is \(length) bytes; use 1 to \(InspectorLayout.maximumNameLength), "
                    + "what fits an advertisement beside the inspector marker")
        }
        let (entries, security) = try state.withLock {
            (state: inout State) throws(AirlinkError) -> ([Entry], PeripheralRoleSecurity?) in
            guard !state.isRunning else {
                throw AirlinkError(.operationInProgress, "\"\(name)\" already runs; stop it first")
            }
            state.isRunning = true
            return (state.entries, state.security)
        }
        do throws(AirlinkError) {
            if let security { try await transport.setSecurity(security) }
            let service = Service(InspectorLayout.serviceUUID) {
                for entry in entries { characteristic(for: entry) }
            }
            try await transport.publish(name: name, services: [service])
            let name = self.name
            try await transport.startAdvertising(
                Advertising {
                    LocalName(name)
                    ManufacturerData(company: InspectorLayout.companyID, InspectorLayout.marker)
                })
        } catch {
            state.withLock { $0.isRunning = false }
            await transport.unpublish()
            throw error
        }
    }

    /// Takes the values off air: centrals are disconnected. ``start()`` puts them back.
    public func stop() async {
        let wasRunning = state.withLock { state in
            defer { state.isRunning = false }
            return state.isRunning
        }
        guard wasRunning else { return }
        await transport.unpublish()
    }

    /// The characteristic a value is served as.
    func characteristic(for entry: Entry) -> CharacteristicSpec {
        var properties: CharacteristicProperties = []
        if entry.options.contains(.read) { properties.insert(.read) }
        if entry.options.contains(.write) { properties.insert(.write) }
        if entry.options.contains(.notify) { properties.insert(.notify) }
        var spec = Characteristic(entry.uuid, properties: properties, value: entry.read())
            .userDescription(entry.identifier)
            .descriptor(
                .characteristicPresentationFormat, value: InspectorLayout.presentationFormat(for: entry.type)
            )
            .spec
        spec.permissions.formUnion(entry.options.protection)
        let type = entry.type
        spec.valueTypeName = type.description
        // A kept value a central changes is notified to the other subscribers, as a property's change is.
        spec.echoesWrites = entry.stored != nil && entry.options.contains(.notify)
        let identifier = entry.identifier
        spec.validate = { [weak self] bytes in
            do throws(ATTRefusal) {
                _ = try InspectedValue(decoding: bytes, as: type)
                return nil
            } catch {
                self?.emit(.refused(identifier: identifier, error: error.error))
                return error.error
            }
        }
        let read = entry.read
        spec.onRead = { _ throws(ATTRefusal) in
            let bytes = read()
            guard bytes.count <= 512 else { throw ATTRefusal(.unlikelyError) }
            return bytes
        }
        if let write = entry.write {
            spec.onWrite = { [weak self] _, bytes throws(ATTRefusal) in
                do throws(ATTRefusal) {
                    let value = try write(bytes)
                    self?.emit(.written(identifier: identifier, value: value))
                } catch {
                    self?.emit(.refused(identifier: identifier, error: error.error))
                    throw error
                }
            }
        }
        return spec
    }
}
