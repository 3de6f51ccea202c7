/// A service of a simulated peripheral (Core Spec Vol 3, Part G, 3.1).
///
/// ```swift
/// Service(.battery) {
///     Characteristic(.batteryLevel, properties: [.read, .notify], value: BatteryLevel(87))
/// }
/// ```
public struct Service: Sendable {
    /// The service's UUID.
    public var uuid: BluetoothUUID
    /// Whether it is primary (0x2800) rather than secondary (0x2801).
    public var isPrimary: Bool
    /// UUIDs of other services of the same peripheral it includes.
    public var includes: [BluetoothUUID]
    /// The characteristics, in handle order.
    public var characteristics: [CharacteristicSpec]
    /// The handle of its declaration, `nil` for the next free one (``GATTServerDefinition/Service/handle``).
    public var handle: ATTHandle?

    /// Declares a service.
    ///
    /// - Parameters:
    ///   - uuid: the service's UUID.
    ///   - primary: `false` for a secondary service.
    ///   - includes: services of the same peripheral to include.
    ///   - characteristics: the characteristics.
    public init(
        _ uuid: BluetoothUUID, primary: Bool = true, includes: [BluetoothUUID] = [],
        @CharacteristicBuilder _ characteristics: () -> [CharacteristicSpec] = { [] }
    ) {
        self.uuid = uuid
        self.isPrimary = primary
        self.includes = includes
        self.characteristics = characteristics()
    }

    /// The byte-level definition for an attribute database.
    public var definition: GATTServerDefinition.Service {
        var definition = GATTServerDefinition.Service(
            uuid, isPrimary: isPrimary, includes: includes, characteristics: characteristics.map(\.definition))
        definition.handle = handle
        return definition
    }
}

/// Builds the characteristics of a ``Service``.
@resultBuilder
public enum CharacteristicBuilder {
    /// A typed characteristic.
    public static func buildExpression<Value>(_ characteristic: Characteristic<Value>) -> [CharacteristicSpec] {
        [characteristic.spec]
    }
    /// A type-erased characteristic.
    public static func buildExpression(_ characteristic: CharacteristicSpec) -> [CharacteristicSpec] {
        [characteristic]
    }
    /// Characteristics in sequence.
    public static func buildBlock(_ parts: [CharacteristicSpec]...) -> [CharacteristicSpec] { parts.flatMap { $0 } }
    /// An optional characteristic.
    public static func buildOptional(_ part: [CharacteristicSpec]?) -> [CharacteristicSpec] { part ?? [] }
    /// One branch of a condition.
    public static func buildEither(first part: [CharacteristicSpec]) -> [CharacteristicSpec] { part }
    /// The other branch of a condition.
    public static func buildEither(second part: [CharacteristicSpec]) -> [CharacteristicSpec] { part }
    /// Characteristics of a loop.
    public static func buildArray(_ parts: [[CharacteristicSpec]]) -> [CharacteristicSpec] { parts.flatMap { $0 } }
}
