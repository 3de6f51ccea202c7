import AirlinkCore

extension BlueZTransport {
    /// Opens the transport: connects to the bus, checks BlueZ is there, picks the adapter, subscribes
    /// to BlueZ's signals and loads its objects.
    ///
    /// - Parameter configuration: the adapter, the bus and the limits.
    /// - Returns: the open transport.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for an adapter name that is not `hciN`;
    ///   ``/AirlinkCore/AirlinkError/Code/transportUnavailable`` when the bus cannot be reached, BlueZ is not on
    ///   it, or the adapter does not exist (the message says which, and how to fix it);
    ///   ``/AirlinkCore/AirlinkError/Code/malformedData`` when BlueZ's answers have the wrong signature.
    public static func open(_ configuration: Configuration = Configuration()) async throws(AirlinkError)
        -> BlueZTransport
    {
        if let adapter = configuration.adapter, !BlueZPath.isValidAdapterName(adapter) {
            throw AirlinkError(
                .invalidArgument,
                "\"\(adapter)\" is not a BlueZ adapter name: write hci0, hci1 ... (for example bluez:hci0); "
                    + "`bluetoothctl list` shows the adapters")
        }
        let bus: DBusConnection.Bus = configuration.busAddress.map { .address($0) } ?? .system
        let connection: DBusConnection
        do {
            connection = try DBusConnection(
                bus: bus, timeout: min(configuration.operationTimeout, DBusConnection.openTimeout))
        } catch {
            throw error.openingError(bus, context: "opening bluez")
        }
        // Opening waits for BlueZ 10 s at most (less with a shorter operation timeout).
        let limit = min(configuration.operationTimeout, .seconds(10))
        let owner = try await bluezOwner(connection, bus: bus, timeout: limit)
        let snapshot = try await managedObjects(connection, timeout: limit)
        let adapter = try chooseAdapter(configuration, in: snapshot)
        let transport = BlueZTransport(
            adapter: adapter, configuration: configuration, connection: connection, owner: owner)
        try await transport.subscribe()
        try await transport.load()
        return transport
    }

    /// org.bluez's unique name.
    private static func bluezOwner(
        _ connection: DBusConnection, bus: DBusConnection.Bus, timeout: Duration
    ) async throws(AirlinkError) -> String {
        do throws(DBusError) {
            let reply = try await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", arguments: [.string(BlueZInterface.service)], timeout: timeout)
            guard let owner = try reply.arguments(expecting: "s", context: "reply to GetNameOwner").first?.string else {
                throw DBusError.malformed("reply to GetNameOwner")
            }
            return owner
        } catch .remote(let name, let text) where name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            throw AirlinkError(
                .transportUnavailable,
                "BlueZ (org.bluez) is not running on the D-Bus \(bus): install bluez (`sudo apt-get install bluez`) "
                    + "and start bluetoothd (`sudo systemctl start bluetooth`); see Docs/RealAdapter.md",
                cause: .bluez(name: name, message: text), context: "opening bluez")
        } catch {
            throw BlueZErrorMapping.map(error, operation: .objects, context: "opening bluez")
        }
    }

    /// A `GetManagedObjects` snapshot.
    static func managedObjects(_ connection: DBusConnection, timeout: Duration) async throws(AirlinkError)
        -> BlueZObjectTree
    {
        do throws(DBusError) {
            let reply = try await connection.call(
                destination: BlueZInterface.service, path: "/", interface: BlueZInterface.objectManager,
                member: "GetManagedObjects", timeout: timeout)
            return try BlueZObjectTree(managedObjects: reply)
        } catch {
            throw BlueZErrorMapping.map(error, operation: .objects, context: "reading BlueZ's objects")
        }
    }

    /// The adapter to use: the one named, or the first; with a diagnosis when there is none.
    private static func chooseAdapter(_ configuration: Configuration, in tree: BlueZObjectTree) throws(AirlinkError)
        -> String
    {
        let adapters = tree.objects.keys.filter {
            $0.hasPrefix("/org/bluez/") && tree.properties($0, BlueZInterface.adapter) != nil
        }.map { String($0.dropFirst("/org/bluez/".count)) }.filter(BlueZPath.isValidAdapterName).sorted {
            (Int($0.dropFirst(3)) ?? 0) < (Int($1.dropFirst(3)) ?? 0)
        }
        if let wanted = configuration.adapter {
            guard adapters.contains(wanted) else {
                let present = adapters.isEmpty ? "BlueZ lists none" : "BlueZ lists " + adapters.joined(separator: ", ")
                throw AirlinkError(
                    .transportUnavailable,
                    "there is no adapter \(wanted): \(present). " + noAdapterAdvice(configuration.hci),
                    context: "opening bluez:\(wanted)")
            }
            return wanted
        }
        guard let first = adapters.first else {
            throw AirlinkError(
                .transportUnavailable, "BlueZ runs but has no adapter. " + noAdapterAdvice(configuration.hci),
                context: "opening bluez")
        }
        return first
    }

    /// What to do when an adapter is missing, from what HCI says.
    private static func noAdapterAdvice(_ hci: any KernelHCI) -> String {
        do {
            let kernel = try hci.adapters()
            if kernel.isEmpty {
                return "The kernel has no Bluetooth controller either: plug one in, and check `rfkill list` "
                    + "(unblock with `rfkill unblock bluetooth`)"
            }
            return "The kernel has " + kernel.map(\.description).joined(separator: ", ")
                + "; restart bluetoothd (`sudo systemctl restart bluetooth`) so that BlueZ takes it up"
        } catch {
            return error.message
        }
    }
}
