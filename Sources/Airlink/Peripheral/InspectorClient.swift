import AirlinkCore

/// Finds ``Inspector``s, connects to them and reads, writes and follows their values by identifier.
///
/// ```swift
/// let observer = InspectorClient(manager: manager)
/// let found = try await observer.discover(named: "Test Server", timeout: .seconds(5))
/// let inspector = try await observer.connect(to: found[0].id)
/// let temperature = try await inspector.read("temperature", as: Double.self)
/// for await change in try await inspector.changes() { print(change.identifier, change.value) }
/// ```
///
/// Built on the `Airlink` layers: any transport, several inspectors at once, and several observers
/// (on other adapters) of one inspector.
public final class InspectorClient: Sendable {
    /// The device manager it works through.
    public let manager: DeviceManager

    /// Creates an observer on a device manager.
    public init(manager: DeviceManager) { self.manager = manager }

    /// Scans for inspectors (advertising the inspector marker).
    ///
    /// - Parameters:
    ///   - name: the exact name of the inspector to find (the scan ends as soon as it is found), or
    ///     `nil` for every inspector heard within `timeout`.
    ///   - timeout: how long to scan at most.
    /// - Returns: the inspectors, in the order first heard.
    /// - Throws: what ``DeviceManager/discover(named:services:timeout:options:)`` throws.
    public func discover(named name: String? = nil, timeout: Duration) async throws(AirlinkError)
        -> [DiscoveredInspector]
    {
        let discovery = try await manager.discover(named: name.map(Self.escaped), timeout: timeout)
        var found: [DiscoveredInspector] = []
        for await event in discovery.events {
            guard case .discovered(let device) = event, InspectorLayout.isInspector(device.advertisement) else {
                continue
            }
            found.append(DiscoveredInspector(id: device.id, name: device.name ?? "", rssi: device.rssi))
            if name != nil { break }
        }
        await discovery.stop()
        return found
    }

    /// Connects to an inspector and lists its values (reading each User Description).
    ///
    /// - Parameters:
    ///   - inspector: the inspector's device.
    ///   - timeout: how long to wait for the link.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/serviceNotFound`` if the device is not an inspector; what
    ///   connecting, discovery and reads throw.
    public func connect(to inspector: DeviceID, timeout: Duration = .seconds(10)) async throws(AirlinkError)
        -> ObservedInspector
    {
        let connection = manager.connection(to: inspector)
        try await connection.connect(timeout: timeout)
        return try await Self.inspector(on: connection)
    }

    /// Lists the values of an inspector the app is connected to through its own connection (with
    /// the reconnection strategy it chose), reading each User Description.
    ///
    /// - Parameter connection: a connection to an inspector, connected.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/serviceNotFound`` if the device is not an inspector; what
    ///   discovery and reads throw.
    public static func inspector(on connection: ConnectionManager) async throws(AirlinkError) -> ObservedInspector {
        let service = connection.services.service(InspectorLayout.serviceUUID)
        var values: [ObservedValue] = []
        for characteristic in try await service.discoverCharacteristics() {
            guard let (version, type, index) = InspectorLayout.parse(characteristic.uuid),
                version == InspectorLayout.version
            else { continue }
            let description = try await service.readDescriptor(
                .characteristicUserDescription, of: characteristic.uuid)
            var options: InspectionOptions = []
            if characteristic.properties.contains(.read) { options.insert(.read) }
            if characteristic.properties.contains(.write) { options.insert(.write) }
            if characteristic.properties.contains(.notify) { options.insert(.notify) }
            values.append(
                ObservedValue(
                    identifier: String(decoding: description, as: UTF8.self), type: type, options: options,
                    index: index, characteristic: characteristic.uuid))
        }
        return ObservedInspector(connection: connection, service: service, values: values)
    }

    /// A regular expression that matches `text` exactly.
    static func escaped(_ text: String) -> String {
        var pattern = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern
    }
}

/// An inspector an ``InspectorClient`` heard.
public struct DiscoveredInspector: Sendable, Hashable, CustomStringConvertible {
    /// The inspector's address, to connect to.
    public var id: DeviceID
    /// The name in its advertisement, which the observer matched.
    public var name: String
    /// The last RSSI heard, in dBm.
    public var rssi: Int?

    /// `"Test Server" 5A:1A:00:00:00:01`.
    public var description: String { "\"\(name)\" \(id)" }
}

/// One value of an inspector as an ``InspectorClient`` sees it.
public struct ObservedValue: Sendable, Hashable {
    /// The identifier (the User Description).
    public var identifier: String
    /// The value's type.
    public var type: InspectedType
    /// What the inspector allows.
    public var options: InspectionOptions
    /// Its position among the inspector's values, from 0, in the order the inspector declares them.
    public var index: Int
    /// The UUID of the characteristic that carries it, to read, write or subscribe.
    public var characteristic: BluetoothUUID
}

/// A change of an inspected value, as notified.
public struct InspectedChange: Sendable, Hashable, CustomStringConvertible {
    /// The value's identifier.
    public var identifier: String
    /// The value after the change, decoded as the inspector's type for it.
    public var value: InspectedValue

    /// A change of a value.
    public init(identifier: String, value: InspectedValue) {
        self.identifier = identifier
        self.value = value
    }

    /// `temperature = 21.5`.
    public var description: String { "\(identifier) = \(value)" }
}
