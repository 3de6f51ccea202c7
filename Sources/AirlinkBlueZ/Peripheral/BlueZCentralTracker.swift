import AirlinkCore

/// Which devices of the adapter are connected, from BlueZ's object tree and its signals: the
/// peripheral role's source of ``/AirlinkCore/PeripheralEvent/centralConnected(_:)`` and
/// ``/AirlinkCore/PeripheralEvent/centralDisconnected(_:reason:)``.
///
/// When a central connects to the app's advertisement, bluetoothd creates (or updates) an
/// `org.bluez.Device1` object for it with `Connected` true, and sets it false when the link ends,
/// after a `Device1.Disconnected` signal with the reason on BlueZ 5.82 and later. A synchronous
/// state machine: the signals go in, in bus order, and the events to report come out.
///
/// BlueZ's D-Bus API does not say which side started a link: a connection the app makes as a
/// central on the same adapter is reported too.
struct BlueZCentralTracker {
    /// The adapter's object path (`/org/bluez/hci0`).
    let adapterPath: String
    private var tree = BlueZObjectTree()
    /// The connected devices by object path, in the order they connected; `reported` is false for
    /// links that were up before the snapshot, whose end is not reported either.
    private(set) var connected: [(path: String, id: DeviceID, reported: Bool)] = []
    /// Reasons from `Device1.Disconnected`, waiting for `Connected` to turn false.
    private var reasons: [String: DisconnectionReason] = [:]
    /// The devices whose `Paired` is true, in the order they paired: a change to true is a pairing to report.
    private var paired: [String] = []
    /// The method of the pairing bluetoothd's calls to the app's agent announced, by device path, until
    /// `Paired` turns true; the last device asked, for an `Agent1.Cancel` (which names none).
    private var methods: [String: PairingMethod] = [:]
    private var lastAsked: String?

    init(adapterPath: String) { self.adapterPath = adapterPath }

    /// Takes a snapshot (`GetManagedObjects`) without reporting: devices connected before the app
    /// published are not its centrals' connections, so neither they nor their end are reported.
    mutating func load(_ snapshot: BlueZObjectTree) {
        tree = snapshot
        var loaded: [(path: String, id: DeviceID, reported: Bool)] = []
        for path in devicePaths() {
            guard let device = device(at: path), device.isConnected, let id = device.deviceID else { continue }
            // A link a signal already announced stays reported.
            loaded.append((path, id, connected.first { $0.path == path }?.reported ?? false))
        }
        connected = loaded
        // Pairings before the snapshot are not the app's to hear of.
        paired = devicePaths().filter { device(at: $0)?.isPaired == true }
    }

    /// Applies a signal of org.bluez and returns what to report.
    ///
    /// - Throws: ``DBusError`` for a signal whose arguments do not have BlueZ's types (nothing changes).
    mutating func apply(_ signal: DBusSignal) throws(DBusError) -> [PeripheralEvent] {
        switch (signal.interface, signal.member) {
        case (BlueZInterface.objectManager, "InterfacesAdded"):
            _ = try tree.apply(interfacesAdded: signal.message)
        case (BlueZInterface.objectManager, "InterfacesRemoved"):
            _ = try tree.apply(interfacesRemoved: signal.message)
        case (BlueZInterface.properties, "PropertiesChanged"):
            _ = try tree.apply(propertiesChanged: signal.message, path: signal.path)
        case (BlueZInterface.device, "Disconnected"):
            let arguments = try signal.message.arguments(expecting: "ss", context: "Device1.Disconnected")
            if let name = arguments.first?.string {
                reasons[signal.path] = BlueZTransport.disconnectionReason(name)
            }
            return []
        default:
            return []
        }
        return reconcile()
    }

    /// Compares the tree with the connected list: links that ended first, then new ones.
    private mutating func reconcile() -> [PeripheralEvent] {
        var events: [PeripheralEvent] = []
        var stillConnected: [(path: String, id: DeviceID, reported: Bool)] = []
        for entry in connected {
            if device(at: entry.path)?.isConnected == true {
                stillConnected.append(entry)
            } else {
                // A device object removed while connected (bluetoothd's cache, RemoveDevice) ended its link too.
                let reason = reasons.removeValue(forKey: entry.path) ?? .remoteUserTerminated
                if entry.reported { events.append(.centralDisconnected(entry.id, reason: reason)) }
            }
        }
        connected = stillConnected
        for path in devicePaths() where !connected.contains(where: { $0.path == path }) {
            guard let device = device(at: path), device.isConnected, let id = device.deviceID else { continue }
            reasons[path] = nil
            connected.append((path, id, true))
            events.append(.centralConnected(id))
        }
        for entry in connected where entry.reported {
            guard let device = device(at: entry.path) else { continue }
            if !device.isPaired {
                paired.removeAll { $0 == entry.path }
            } else if !paired.contains(entry.path) {
                paired.append(entry.path)
                let method = methods.removeValue(forKey: entry.path) ?? .justWorks
                let bonded = device.properties["Bonded"]?.bool ?? false
                let level = BlueZPairingMethodObserver.level(of: method)
                events.append(
                    .paired(entry.id, PairingResult(method: method, level: level, keySize: 16, bonded: bonded)))
            }
        }
        return events
    }

    /// bluetoothd asked the app's agent about a central pairing by `method` (its `RequestConfirmation`,
    /// `RequestPasskey`, `DisplayPasskey` or `RequestAuthorization`): the event to report, `nil` for a device
    /// the tree does not hold.
    mutating func agentAsked(_ method: PairingMethod, device path: String) -> PeripheralEvent? {
        guard let id = device(at: path)?.deviceID else { return nil }
        methods[path] = method
        lastAsked = path
        return .pairingRequested(id, method: method)
    }

    /// The app's agent refused (`reason`), or bluetoothd cancelled its request (`Agent1.Cancel`, `reason` `nil`,
    /// for the last device asked): the pairing failed.
    mutating func agentFailed(_ reason: PairingFailureReason?, device path: String?) -> PeripheralEvent? {
        guard let path = path ?? lastAsked, let id = device(at: path)?.deviceID else { return nil }
        methods[path] = nil
        return .pairingFailed(id, reason: reason)
    }

    private func devicePaths() -> [String] {
        tree.paths(under: adapterPath, with: BlueZInterface.device)
    }

    private func device(at path: String) -> BlueZDevice? {
        tree.properties(path, BlueZInterface.device).map { BlueZDevice(path: path, properties: $0) }
    }
}
