/// What a simulated peripheral's behaviours see and act on: its firmware's view of the world.
///
/// A transport that simulates peripherals (the virtual radio, a BlueZ peripheral fixture) implements it
/// and hands it to ``Characteristic`` behaviours, periodic updates and timeline actions. Every method
/// acts at once, in the simulation's time; setting the value of a characteristic that centrals
/// subscribed to sends them a notification or indication.
public protocol PeripheralContext: AnyObject, Sendable {
    /// The peripheral's identifier.
    var id: DeviceID { get }
    /// The current (virtual) time.
    var now: AirlinkInstant { get }
    /// The simulation's seeded random source.
    var random: any RandomSource { get }
    /// The firmware's state, initialised from the spec's ``State`` entries.
    var state: PeripheralState { get set }

    /// The current bytes of a characteristic.
    ///
    /// - Parameters:
    ///   - characteristic: the characteristic's UUID.
    ///   - service: its service, needed only when several services hold that characteristic.
    /// - Throws: ``AirlinkError/Code/characteristicNotFound``.
    func bytes(of characteristic: BluetoothUUID, in service: BluetoothUUID?) throws(AirlinkError) -> [UInt8]

    /// Stores new bytes for a characteristic and notifies or indicates them to every central that
    /// subscribed.
    ///
    /// - Throws: ``AirlinkError/Code/characteristicNotFound``; ``AirlinkError/Code/invalidArgument``
    ///   for more than 512 bytes.
    func setBytes(_ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID?)
        throws(AirlinkError)

    /// Sends bytes as a notification or indication to the centrals that subscribed, without storing them.
    ///
    /// - Throws: ``AirlinkError/Code/characteristicNotFound``;
    ///   ``AirlinkError/Code/operationNotSupported`` if the characteristic neither notifies nor indicates.
    func notify(_ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID?)
        throws(AirlinkError)

    /// Calls `body` once `delay` has passed (in virtual time on the virtual radio, on the environment's clock
    /// when BlueZ serves the database): a firmware's answer that comes after the request that caused it, such as
    /// a notification some time after a write.
    func schedule(after delay: Duration, _ body: @escaping @Sendable (any PeripheralContext) -> Void)

    /// Records a line in the simulation's trace under the `peripheral` category.
    func log(_ text: String)
}

// Inlinable: behaviours live in other modules (the profiles, apps), where these calls are then
// specialized for the value's type instead of dispatching through its witness table on every read.
extension PeripheralContext {
    /// The current value of a characteristic, decoded as `Value`.
    ///
    /// - Throws: ``AirlinkError/Code/characteristicNotFound``; ``AirlinkError/Code/malformedData`` if
    ///   the bytes are not a `Value`.
    @inlinable
    public func value<Value: GATTValue>(
        of characteristic: BluetoothUUID, in service: BluetoothUUID? = nil, as type: Value.Type = Value.self
    ) throws(AirlinkError) -> Value {
        try Value(gattBytes: try bytes(of: characteristic, in: service))
    }

    /// Stores a typed value and notifies subscribed centrals (see ``setBytes(_:of:in:)``).
    @inlinable
    public func setValue<Value: GATTValue>(
        _ value: Value, of characteristic: BluetoothUUID, in service: BluetoothUUID? = nil
    ) throws(AirlinkError) {
        try setBytes(value.gattBytes, of: characteristic, in: service)
    }

    /// Sends a typed value to subscribed centrals without storing it (see ``notify(_:of:in:)``).
    @inlinable
    public func notify<Value: GATTValue>(
        _ value: Value, of characteristic: BluetoothUUID, in service: BluetoothUUID? = nil
    ) throws(AirlinkError) {
        try notify(value.gattBytes, of: characteristic, in: service)
    }
}

/// A behaviour's refusal of a read or write: the ATT error the peripheral answers with
/// (Core Spec Vol 3, Part F, 3.4.1.1).
///
/// ```swift
/// Characteristic(.batteryLevel, properties: [.read, .write], value: BatteryLevel(87))
///     .onWrite { context, level in
///         guard level.percent <= 100 else { throw ATTRefusal(.valueNotAllowed) }
///     }
/// ```
public struct ATTRefusal: Error, Sendable, Hashable {
    /// The error code sent in the Error Response.
    public var error: ATTError

    /// Refuses with `error`.
    public init(_ error: ATTError) { self.error = error }

    /// The refusal a behaviour's error stands for: itself if it is one, Unlikely Error otherwise.
    public init(refusing error: any Error) {
        self = (error as? ATTRefusal) ?? ATTRefusal(.unlikelyError)
    }
}
