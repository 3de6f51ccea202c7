/// A characteristic of a simulated peripheral, with a typed value (Core Spec Vol 3, Part G, 3.3).
///
/// ```swift
/// Characteristic(.batteryLevel, properties: [.read, .notify], value: BatteryLevel(87))
///     .userDescription("Battery")
///     .updates(every: .seconds(60)) { $0.drained(by: 1) }
/// ```
///
/// Writes from a central must decode as `Value`: bytes that do not are refused with Invalid Attribute
/// Value Length when their length differs from the current value's, else with Value Not Allowed.
public struct Characteristic<Value: GATTValue>: Sendable {
    /// The type-erased characteristic this declaration builds.
    public var spec: CharacteristicSpec

    /// Declares a characteristic.
    ///
    /// - Parameters:
    ///   - uuid: the characteristic's UUID.
    ///   - properties: the declaration's properties.
    ///   - permissions: the value's permissions; by default readable with `.read` and writable with
    ///     either kind of write.
    ///   - value: the initial value.
    public init(
        _ uuid: BluetoothUUID, properties: CharacteristicProperties, permissions: AttributePermissions? = nil,
        value: Value
    ) {
        let initial = value.gattBytes
        spec = CharacteristicSpec(
            uuid: uuid, properties: properties,
            permissions: permissions ?? GATTServerDefinition.Characteristic.defaultPermissions(for: properties),
            initialValue: initial, valueTypeName: "\(Value.self)", descriptors: [],
            validate: { bytes in
                do {
                    _ = try Value(gattBytes: bytes)
                    return nil
                } catch {
                    return bytes.count == initial.count ? .valueNotAllowed : .invalidAttributeValueLength
                }
            },
            onRead: nil, onWrite: nil, updates: [], echoesWrites: false)
    }

    /// Adds a descriptor.
    public func descriptor(_ descriptor: GATTServerDefinition.Descriptor) -> Self {
        var copy = self
        copy.spec.descriptors.append(descriptor)
        return copy
    }

    /// Adds a descriptor with a typed value.
    ///
    /// - Parameters:
    ///   - uuid: the descriptor's type.
    ///   - value: its value.
    ///   - permissions: readable by default.
    public func descriptor(
        _ uuid: BluetoothUUID, value: some GATTValue, permissions: AttributePermissions = .readable
    ) -> Self {
        descriptor(GATTServerDefinition.Descriptor(uuid, permissions: permissions, value: value.gattBytes))
    }

    /// Adds a Characteristic User Description (0x2901), read-only (Vol 3, Part G, 3.3.3.2).
    public func userDescription(_ text: String) -> Self { descriptor(.userDescription(text)) }

    /// Computes the value whenever a central reads it; throw ``ATTRefusal`` to refuse the read (any
    /// other error is answered with Unlikely Error).
    public func onRead(_ body: @escaping @Sendable (any PeripheralContext) throws -> Value) -> Self {
        var copy = self
        copy.spec.onRead = { context throws(ATTRefusal) in
            do { return try body(context).gattBytes } catch { throw ATTRefusal(refusing: error) }
        }
        return copy
    }

    /// Reacts to a central's write of a valid `Value`, before it is stored; throw ``ATTRefusal`` to
    /// refuse it (a write with response then gets that error; a command is dropped; any other error
    /// is answered with Unlikely Error).
    public func onWrite(_ body: @escaping @Sendable (any PeripheralContext, Value) throws -> Void) -> Self {
        var copy = self
        copy.spec.onWrite = { context, bytes throws(ATTRefusal) in
            // try?: the central hears Value Not Allowed, all ATT can say; the codec's reason has no way there
            guard let value = try? Value(gattBytes: bytes) else { throw ATTRefusal(.valueNotAllowed) }
            do { try body(context, value) } catch { throw ATTRefusal(refusing: error) }
        }
        return copy
    }

    /// The named `echo` behaviour: every value a central writes is also notified back to subscribers.
    public func echoesWrites() -> Self {
        var copy = self
        copy.spec.echoesWrites = true
        return copy
    }

    /// The named `refuse writes` behaviour: every write is answered with `error`.
    public func refusesWrites(with error: ATTError) -> Self {
        onWrite { _, _ in throw ATTRefusal(error) }
    }

    /// Changes the value every `period` of virtual time; subscribed centrals are notified of each change.
    ///
    /// - Parameters:
    ///   - period: how often the update runs.
    ///   - transform: the next value from the current one.
    public func updates(every period: Duration, _ transform: @escaping @Sendable (Value) -> Value) -> Self {
        updates(every: period) { value, _ in transform(value) }
    }

    /// Changes the value every `period`, with the peripheral's context; return `nil` to leave it unchanged.
    public func updates(
        every period: Duration, _ transform: @escaping @Sendable (Value, any PeripheralContext) -> Value?
    ) -> Self {
        var copy = self
        copy.spec.updates.append(
            CharacteristicSpec.PeriodicUpdate(period: period) { bytes, context throws(AirlinkError) in
                let current = try Value(gattBytes: bytes)
                return transform(current, context)?.gattBytes
            })
        return copy
    }
}
