import AirlinkCore

/// One service of a connected device, by UUID: read, write, descriptors, notifications, observers.
///
/// Carries forward YmsCoreBluetooth's `YMSCBService` and WLXBluetoothDevice's `WLXServiceManager`:
/// characteristics are named by UUID; each is discovered the first time it is used and cached,
/// until the link comes back or the device reports Service Changed (handles may have moved), then
/// discovered again. The same object keeps working across reconnections.
///
/// Operations on one device are serialized (one ATT request at a time per link, Core Spec Vol 3,
/// Part F, 3.3.2) while callers stay concurrent. Each operation completes or throws
/// ``/AirlinkCore/AirlinkError/Code/timeout`` within 30 s of the call (ATT's transaction timeout, Core Spec
/// Vol 3, Part F, 3.3.3): the time it waits behind other operations on the device and the discovery a
/// first use needs count in those 30 s. Every failure is an ``/AirlinkCore/AirlinkError`` whose message
/// says what was wrong; an ATT error from the device is kept as its cause.
///
/// ```swift
/// let battery = connection.services.service(.battery)
/// let level = try await battery.read(UInt8.self, from: .batteryLevel)
/// ```
public final class DeviceService: Sendable {
    /// The service's UUID.
    public let uuid: BluetoothUUID
    let client: GATTClient
    let registry: ObserverRegistry

    init(uuid: BluetoothUUID, client: GATTClient) {
        self.uuid = uuid
        self.client = client
        self.registry = client.registry(for: uuid)
    }

    /// The device the service belongs to.
    public var device: DeviceID { client.device }

    /// The service as discovered on the current link (discovering it if needed).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/serviceNotFound``, ``/AirlinkCore/AirlinkError/Code/notConnected``.
    public func service() async throws(AirlinkError) -> GATTService {
        try await client.perform("discover service \(uuid)", service: uuid) { turn throws(AirlinkError) in
            try await client.resolveService(uuid, turn: turn)
        }
    }

    /// Discovers the service's characteristics: all of them, or those with the given UUIDs.
    ///
    /// - Parameter uuids: the characteristics of interest, or `nil` for all.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/serviceNotFound``, ``/AirlinkCore/AirlinkError/Code/notConnected``.
    public func discoverCharacteristics(_ uuids: [BluetoothUUID]? = nil) async throws(AirlinkError)
        -> [GATTCharacteristic]
    {
        try await client.perform("discover characteristics of \(uuid)", service: uuid) {
            turn throws(AirlinkError) in
            try await client.discoverCharacteristics(uuids, of: uuid, turn: turn)
        }
    }

    /// A characteristic of the service, from the cache or discovered.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/characteristicNotFound``,
    ///   ``/AirlinkCore/AirlinkError/Code/serviceNotFound``.
    public func characteristic(_ characteristic: BluetoothUUID) async throws(AirlinkError) -> GATTCharacteristic {
        try await client.perform("discover \(characteristic) in \(uuid)", service: uuid, characteristic: characteristic)
        {
            turn throws(AirlinkError) in
            try await client.resolveCharacteristic(characteristic, in: uuid, turn: turn).1
        }
    }

    /// A characteristic of the service from the cache, in line (a request's common path, without the
    /// task switches of an asynchronous call), or resolved in the operation's `turn`.
    @inline(__always)
    private nonisolated(nonsending) func resolve(_ characteristic: BluetoothUUID, turn: GATTClient.Turn)
        async throws(AirlinkError)
        -> GATTCharacteristic
    {
        if let (_, cached) = client.cachedCharacteristic(characteristic, in: uuid) { return cached }
        return try await client.resolveCharacteristic(characteristic, in: uuid, turn: turn).1
    }

    // MARK: Values

    /// Reads a characteristic's whole value.
    ///
    /// - Parameter characteristic: the characteristic's UUID.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` if it cannot be read;
    ///   ``/AirlinkCore/AirlinkError/Code/attribute`` with the ATT error if the device refused;
    ///   ``/AirlinkCore/AirlinkError/Code/characteristicNotFound``, ``/AirlinkCore/AirlinkError/Code/notConnected``,
    ///   ``/AirlinkCore/AirlinkError/Code/linkLost``, ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``;
    ///   ``/AirlinkCore/AirlinkError/Code/timeout`` 30 s after the call, discovering the characteristic
    ///   on first use and waiting for the turn included.
    public nonisolated(nonsending) func read(_ characteristic: BluetoothUUID) async throws(AirlinkError) -> [UInt8] {
        try await client.perform("read \(characteristic) in \(uuid)", service: uuid, characteristic: characteristic) {
            turn throws(AirlinkError) in
            let resolved = try await resolve(characteristic, turn: turn)
            guard resolved.properties.contains(.read) else {
                throw AirlinkError(
                    .operationNotSupported,
                    "characteristic \(characteristic) cannot be read (its properties are \(resolved.properties))"
                        + (resolved.properties.canSubscribe ? "; enable notifications and observe it instead" : ""))
            }
            return try await client.transport.read(client.device, handle: resolved.valueHandle)
        }
    }

    /// Reads a characteristic's value as a typed ``/AirlinkCore/GATTValue``.
    ///
    /// - Throws: what ``read(_:)`` throws; ``/AirlinkCore/AirlinkError/Code/malformedData`` if the bytes do not fit.
    public func read<Value: GATTValue>(
        _ type: Value.Type, from characteristic: BluetoothUUID
    ) async throws(AirlinkError) -> Value {
        try Value(gattBytes: try await read(characteristic))
    }

    /// Writes a characteristic's value.
    ///
    /// A write without response carries at most MTU − 3 bytes (``DeviceServices/maximumWriteLength(for:)``);
    /// a longer one is refused here, before it reaches the transport. A write with response carries
    /// up to 512 bytes (the transport uses Prepared Writes past MTU − 3).
    ///
    /// - Parameters:
    ///   - bytes: the value.
    ///   - characteristic: the characteristic's UUID.
    ///   - type: with response (default) or without.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a value too long;
    ///   ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` if it cannot be written that way;
    ///   ``/AirlinkCore/AirlinkError/Code/attribute`` with the ATT error if the device refused; and the errors of
    ///   ``read(_:)``.
    public nonisolated(nonsending) func write(
        _ bytes: [UInt8], to characteristic: BluetoothUUID, type: WriteType = .withResponse
    ) async throws(AirlinkError) {
        if bytes.count > LinkInfo(mtu: 23).maximumWriteWithResponseLength {
            throw AirlinkError(
                .invalidArgument,
                "the value for \(characteristic) is \(bytes.count) bytes; an attribute holds at most 512 "
                    + "(Core Spec Vol 3, Part F, 3.2.9). Split it the way the device's protocol says")
        }
        try await client.perform("write \(characteristic) in \(uuid)", service: uuid, characteristic: characteristic) {
            turn throws(AirlinkError) in
            let resolved = try await resolve(characteristic, turn: turn)
            let needed: CharacteristicProperties = type == .withResponse ? .write : .writeWithoutResponse
            guard resolved.properties.contains(needed) else {
                let other: CharacteristicProperties = type == .withResponse ? .writeWithoutResponse : .write
                let hint =
                    resolved.properties.contains(other)
                    ? "write \(type == .withResponse ? "without" : "with") response instead" : "it is not writable"
                throw AirlinkError(
                    .operationNotSupported,
                    "characteristic \(characteristic) cannot be written \(type == .withResponse ? "with" : "without") "
                        + "response (its properties are \(resolved.properties)); \(hint)")
            }
            if type == .withoutResponse {
                try await checkCommandLength(bytes.count, characteristic, turn: turn)
            }
            try await client.transport.write(client.device, handle: resolved.valueHandle, value: bytes, type: type)
        }
    }

    /// Writes a typed ``/AirlinkCore/GATTValue`` to a characteristic.
    ///
    /// - Throws: what ``write(_:to:type:)-([UInt8],_,_)`` throws.
    public func write(
        _ value: some GATTValue, to characteristic: BluetoothUUID, type: WriteType = .withResponse
    ) async throws(AirlinkError) {
        try await write(value.gattBytes, to: characteristic, type: type)
    }

    private func checkCommandLength(
        _ count: Int, _ characteristic: BluetoothUUID, turn: GATTClient.Turn
    ) async throws(AirlinkError) {
        guard let known = client.info, count > known.maximumWriteWithoutResponseLength else { return }
        let info = try await client.refreshLinkInfo(turn: turn)  // the MTU may have grown since
        guard count > info.maximumWriteWithoutResponseLength else { return }
        throw AirlinkError(
            .invalidArgument,
            "the value for \(characteristic) is \(count) bytes, but a write without response carries at most "
                + "\(info.maximumWriteWithoutResponseLength) at MTU \(info.mtu) (MTU − 3); write with response, "
                + "or shorten the value")
    }

    // MARK: Descriptors

    /// Reads a descriptor of a characteristic.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/descriptorNotFound``, ``/AirlinkCore/AirlinkError/Code/attribute``,
    ///   and the errors of ``read(_:)``.
    public func readDescriptor(
        _ descriptor: BluetoothUUID, of characteristic: BluetoothUUID
    ) async throws(AirlinkError) -> [UInt8] {
        try await client.perform(
            "read descriptor \(descriptor) of \(characteristic) in \(uuid)", service: uuid,
            characteristic: characteristic
        ) {
            turn throws(AirlinkError) in
            let (service, resolved) = try await client.resolveCharacteristic(
                characteristic, in: uuid, turn: turn)
            let found = try await client.resolveDescriptor(descriptor, of: resolved, in: service, turn: turn)
            return try await client.transport.read(client.device, handle: found.handle)
        }
    }

    /// Writes a descriptor of a characteristic.
    ///
    /// The Client Characteristic Configuration (0x2902) is written with ``setNotifications(_:for:)``
    /// instead, so that Airlink can restore it after a reconnection.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for the CCCD or a value over 512 bytes;
    ///   ``/AirlinkCore/AirlinkError/Code/descriptorNotFound``, ``/AirlinkCore/AirlinkError/Code/attribute``.
    public func writeDescriptor(
        _ bytes: [UInt8], to descriptor: BluetoothUUID, of characteristic: BluetoothUUID
    ) async throws(AirlinkError) {
        if descriptor == .clientCharacteristicConfiguration {
            throw AirlinkError(
                .invalidArgument,
                "write the Client Characteristic Configuration of \(characteristic) with setNotifications(_:for:) "
                    + "or enableNotifications(for:), so that Airlink restores it after a reconnection")
        }
        if bytes.count > 512 {
            throw AirlinkError(
                .invalidArgument, "the value for descriptor \(descriptor) is \(bytes.count) bytes; at most 512 fit")
        }
        try await client.perform(
            "write descriptor \(descriptor) of \(characteristic) in \(uuid)", service: uuid,
            characteristic: characteristic
        ) {
            turn throws(AirlinkError) in
            let (service, resolved) = try await client.resolveCharacteristic(
                characteristic, in: uuid, turn: turn)
            let found = try await client.resolveDescriptor(descriptor, of: resolved, in: service, turn: turn)
            try await client.transport.write(client.device, handle: found.handle, value: bytes, type: .withResponse)
        }
    }
}
