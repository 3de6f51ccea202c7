/// A characteristic of a ``PeripheralSpec`` with its value type erased: what a transport simulating
/// the peripheral needs (bytes, behaviours, updates).
///
/// Built from ``Characteristic``; specs never write it by hand.
public struct CharacteristicSpec: Sendable {
    /// The characteristic's UUID.
    public var uuid: BluetoothUUID
    /// The declaration's properties.
    public var properties: CharacteristicProperties
    /// The value's permissions.
    public var permissions: AttributePermissions
    /// The initial value's bytes.
    public var initialValue: [UInt8]
    /// The name of the value's type, for messages (`BatteryLevel`).
    public var valueTypeName: String
    /// Further descriptors (a CCCD is added for characteristics that notify or indicate).
    public var descriptors: [GATTServerDefinition.Descriptor]
    /// Checks the bytes a central writes: `nil` if they decode as the value type, else the ATT error.
    public var validate: @Sendable ([UInt8]) -> ATTError?
    /// Supplies the value when a central reads it; `nil` serves the stored value.
    public var onRead: (@Sendable (any PeripheralContext) throws(ATTRefusal) -> [UInt8])?
    /// Reacts to a central's write, after validation and before the value is stored.
    public var onWrite: (@Sendable (any PeripheralContext, [UInt8]) throws(ATTRefusal) -> Void)?
    /// Updates that change the value at fixed periods of virtual time.
    public var updates: [PeriodicUpdate]
    /// Whether a written value is sent back to subscribed centrals (the named `echo` behaviour).
    public var echoesWrites: Bool
    /// The handle of its declaration, `nil` for the next free one (``GATTServerDefinition/Characteristic/handle``).
    public var handle: ATTHandle?

    /// An update that runs every `period` and returns the new bytes, or `nil` to leave the value.
    public struct PeriodicUpdate: Sendable {
        /// How often the update runs.
        public var period: Duration
        /// Computes the next bytes from the current ones.
        public var transform: @Sendable ([UInt8], any PeripheralContext) throws(AirlinkError) -> [UInt8]?

        /// Creates an update.
        public init(
            period: Duration,
            transform: @escaping @Sendable ([UInt8], any PeripheralContext) throws(AirlinkError) -> [UInt8]?
        ) {
            self.period = period
            self.transform = transform
        }
    }

    /// The byte-level definition for an attribute database.
    public var definition: GATTServerDefinition.Characteristic {
        var definition = GATTServerDefinition.Characteristic(
            uuid, properties: properties, permissions: permissions, value: initialValue, descriptors: descriptors)
        definition.handle = handle
        return definition
    }
}
