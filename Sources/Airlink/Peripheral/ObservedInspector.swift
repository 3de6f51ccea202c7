import AirlinkCore
import Synchronization

/// A connected inspector: its values by identifier, to read, write and follow.
public final class ObservedInspector: Sendable {
    /// The link to the inspector's device, for its state and to disconnect when done.
    public let connection: ConnectionManager
    let service: DeviceService
    /// The values, in the inspector's order.
    public let values: [ObservedValue]
    /// The observers that feed ``changes()``: `nil` until its first call, empty after ``disconnect()``.
    let tokens = Mutex<[ObserverToken]?>(nil)
    /// Every subscriber of ``changes()``; finished at ``disconnect()``.
    let changeBroadcaster = Broadcaster<InspectedChange>()

    init(connection: ConnectionManager, service: DeviceService, values: [ObservedValue]) {
        self.connection = connection
        self.service = service
        self.values = values
    }

    /// The inspector's device.
    public var device: DeviceID { connection.device }

    /// The identifiers, in the inspector's order.
    public var identifiers: [String] { values.map(\.identifier) }

    /// The value with an identifier.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/characteristicNotFound`` naming the identifiers there are.
    public func value(_ identifier: String) throws(AirlinkError) -> ObservedValue {
        guard let value = values.first(where: { $0.identifier == identifier }) else {
            throw AirlinkError(
                .characteristicNotFound,
                "the inspector at \(device) has no value \"\(identifier)\"; "
                    + "it has \(identifiers.joined(separator: ", "))"
            )
        }
        return value
    }

    /// Reads a value.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/characteristicNotFound``;
    ///   ``/AirlinkCore/AirlinkError/Code/malformedData`` if the bytes are not of the value's type; what reading
    ///   throws.
    public func read(_ identifier: String) async throws(AirlinkError) -> InspectedValue {
        let value = try value(identifier)
        let bytes = try await service.read(value.characteristic)
        return try Self.decode(bytes, value)
    }

    /// Reads a value as a Swift type.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` if the value is of another type; what ``read(_:)``
    ///   throws.
    public func read<Value: InspectableValue>(_ identifier: String, as type: Value.Type = Value.self)
        async throws(AirlinkError) -> Value
    {
        let inspected = try await read(identifier)
        do {
            return try Value(inspected: inspected)
        } catch {
            throw AirlinkError(.malformedData, "\"\(identifier)\" is a \(inspected.type), not a \(Value.self)")
        }
    }

    /// Writes a value (with response).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if `newValue` is not of the value's type (nothing
    ///   is sent); ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` for a value inspected without `.write`;
    ///   ``/AirlinkCore/AirlinkError/Code/attribute`` with the inspector's ATT error if it refused.
    public func write(_ newValue: some InspectableValue, to identifier: String) async throws(AirlinkError) {
        try await write(newValue.inspectedValue, to: identifier)
    }

    /// Writes a typed value (with response); see ``write(_:to:)-(InspectableValue,_)``.
    public func write(_ newValue: InspectedValue, to identifier: String) async throws(AirlinkError) {
        let value = try value(identifier)
        guard newValue.type == value.type else {
            throw AirlinkError(
                .invalidArgument,
                "\"\(identifier)\" is a \(value.type); pass a \(value.type), not a \(newValue.type) (\(newValue))")
        }
        try await service.write(newValue.bytes, to: value.characteristic)
    }

    /// Writes raw bytes, unchecked: the inspector checks them (a tool's view, and tests of refusals).
    public func writeBytes(_ bytes: [UInt8], to identifier: String) async throws(AirlinkError) {
        try await service.write(bytes, to: try value(identifier).characteristic)
    }

    /// Subscribes to every value inspected with `.notify` and delivers their changes.
    ///
    /// Each call returns its own stream of every change from then on; the first call starts observing.
    ///
    /// - Returns: the changes, in the order they arrive; the stream ends at ``disconnect()`` (an ended
    ///   stream after it).
    /// - Throws: what enabling notifications throws.
    public func changes() async throws(AirlinkError) -> EventStream<InspectedChange> {
        let stream = changeBroadcaster.subscribe()
        let first = tokens.withLock { tokens -> Bool in
            guard tokens == nil else { return false }
            tokens = []
            return true
        }
        for value in values where value.options.contains(.notify) {
            if first {
                let logger = service.client.logger
                let token = service.addObserver(for: value.characteristic) { [changeBroadcaster] notified in
                    do throws(AirlinkError) {
                        let decoded = try Self.decode(notified.bytes, value)
                        changeBroadcaster.yield(InspectedChange(identifier: value.identifier, value: decoded))
                    } catch {
                        // A stream of changes has no error to end with for one bad value: the next may decode.
                        logger.warning("inspector change dropped: \(error.message)")
                    }
                }
                let kept = tokens.withLock { tokens -> Bool in
                    guard !changeBroadcaster.isFinished else { return false }  // disconnected meanwhile
                    tokens?.append(token)
                    return true
                }
                if !kept { service.removeObserver(token) }
            }
            _ = try await service.enableNotifications(for: value.characteristic)
        }
        return stream
    }

    /// Disconnects from the inspector.
    public func disconnect() async {
        let tokens = self.tokens.withLock { tokens in
            defer { tokens = [] }
            changeBroadcaster.finish()
            return tokens ?? []
        }
        for token in tokens { service.removeObserver(token) }
        await connection.disconnect()
    }

    static func decode(_ bytes: [UInt8], _ value: ObservedValue) throws(AirlinkError) -> InspectedValue {
        do {
            return try InspectedValue(decoding: bytes, as: value.type)
        } catch {
            throw AirlinkError(
                .malformedData, "\"\(value.identifier)\" sent \(bytes.count) bytes that are not a \(value.type)")
        }
    }
}
