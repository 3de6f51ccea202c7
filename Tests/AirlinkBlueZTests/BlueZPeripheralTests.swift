import AirlinkBlueZTestSupport
import AirlinkCore
import Foundation
import Testing

@testable import AirlinkBlueZ

/// The peripheral role on the fake BlueZ: the app's objects registered with GattManager1 and
/// LEAdvertisingManager1, and the test in bluetoothd's place calling them over the private bus.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZPeripheralTests {
    static let service = BluetoothUUID(value: 0x6E1A_0000_0000_4C3E_9D2B_4152_4C49_4E4B)
    static let level = BluetoothUUID(0x2A19)
    static let mode = BluetoothUUID(0x2A3A)

    /// A published battery-like database: a readable, notifying level and a writable UInt8 mode (0...3).
    private func published(_ fake: FakeBlueZ) async throws -> (BlueZPeripheral, DBusConnection) {
        let peripheral = try BlueZPeripheral(busAddress: fake.address, environment: .live())
        try await peripheral.publish(
            name: "Test Server",
            services: [
                Service(Self.service) {
                    Characteristic(Self.level, properties: [.read, .notify], value: UInt8(87)).userDescription("level")
                    Characteristic(Self.mode, properties: [.read, .write], value: UInt8(1))
                        .onWrite { _, mode in if mode > 3 { throw ATTRefusal(.valueNotAllowed) } }
                }
            ])
        try await peripheral.startAdvertising(Advertising { LocalName("Test Server") })
        return (peripheral, try DBusConnection(bus: .address(fake.address)))
    }

    private func call(
        _ bluetoothd: DBusConnection, _ peripheral: BlueZPeripheral, _ path: String, _ interface: String,
        _ member: String, _ arguments: [DBusValue] = []
    ) async throws -> DBusMessage {
        try await bluetoothd.call(
            destination: peripheral.busName, path: path, interface: interface, member: member, arguments: arguments,
            timeout: .seconds(5))
    }

    @Test func theApplicationAndItsAdvertisementAreRegisteredWithBlueZ() async throws {
        // Given the fake BlueZ, when an app publishes a database and advertises
        let fake = try #require(FakeBlueZ.current)
        let (peripheral, _) = try await published(fake)

        // Then GattManager1 and LEAdvertisingManager1 recorded both registrations, from the app's connection
        let calls = try await fake.callLog().filter {
            ["RegisterApplication", "RegisterAdvertisement"].contains($0["method"] as? String)
        }
        #expect(calls.map { $0["method"] as? String } == ["RegisterApplication", "RegisterAdvertisement"])
        let arguments = calls.compactMap { $0["args"] as? [String: String] }
        #expect(arguments.first?["object"] == peripheral.applicationPath)
        #expect(arguments.last?["object"] == peripheral.applicationPath + "/advertisement0")
        #expect(arguments.allSatisfy { $0["sender"] == peripheral.busName })
        await peripheral.unpublish()
    }

    @Test func bluetoothdSeesTheObjectsAndTheirProperties() async throws {
        // Given a published database
        let fake = try #require(FakeBlueZ.current)
        let (peripheral, bluetoothd) = try await published(fake)
        let root = peripheral.applicationPath

        // When bluetoothd asks the ObjectManager and the advertisement for their properties
        let objects =
            try await call(bluetoothd, peripheral, root, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
            .arguments().first?.entries ?? []
        let advertisement =
            try await call(
                bluetoothd, peripheral, root + "/advertisement0", "org.freedesktop.DBus.Properties", "GetAll",
                [.string("org.bluez.LEAdvertisement1")]
            ).arguments().first?.entries ?? []

        // Then it sees one service, two characteristics with BlueZ flags, their descriptors, and the name
        let paths = objects.compactMap { entry -> String? in
            if case .objectPath(let path) = entry.key { return path } else { return nil }
        }
        #expect(
            paths == [
                "\(root)/service0", "\(root)/service0/char0", "\(root)/service0/char0/desc0",
                "\(root)/service0/char1",
            ])
        let level = objects.first { $0.key == .objectPath("\(root)/service0/char0") }?.value.entries?.first?.value
        let flags = level?.entries?.first { $0.key == .string("Flags") }?.value.strings
        #expect(flags == ["read", "notify"])
        #expect(advertisement.first { $0.key == .string("LocalName") }?.value.string == "Test Server")
        await peripheral.unpublish()
    }

    @Test func readsWritesAndNotificationsGoThroughTheAppsHandlers() async throws {
        // Given a published database and bluetoothd listening to the level's PropertiesChanged
        let fake = try #require(FakeBlueZ.current)
        let (peripheral, bluetoothd) = try await published(fake)
        let level = peripheral.applicationPath + "/service0/char0"
        let mode = peripheral.applicationPath + "/service0/char1"
        let signals = try await bluetoothd.signals(
            DBusMatchRule(
                sender: peripheral.busName, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                path: level))
        let characteristic = "org.bluez.GattCharacteristic1"

        // When bluetoothd reads, writes a valid and an invalid mode and a read-only value, subscribes, and the app
        // updates
        let read = try await call(bluetoothd, peripheral, level, characteristic, "ReadValue", [.properties([])])
        _ = try await call(bluetoothd, peripheral, mode, characteristic, "WriteValue", [.bytes([3]), .properties([])])
        let refused = await #expect(throws: DBusError.self) {
            _ = try await call(
                bluetoothd, peripheral, mode, characteristic, "WriteValue", [.bytes([9]), .properties([])])
        }
        let tooLong = await #expect(throws: DBusError.self) {
            _ = try await call(
                bluetoothd, peripheral, mode, characteristic, "WriteValue", [.bytes([1, 2]), .properties([])])
        }
        let readOnly = await #expect(throws: DBusError.self) {
            _ = try await call(
                bluetoothd, peripheral, level, characteristic, "WriteValue", [.bytes([1]), .properties([])])
        }
        let events = peripheral.peripheralEvents()
        _ = try await call(bluetoothd, peripheral, level, characteristic, "StartNotify")
        try await peripheral.updateValue([86], of: Self.level, in: Self.service)
        let modeAfter = try await call(bluetoothd, peripheral, mode, characteristic, "ReadValue", [.properties([])])

        // Then the answers and errors are BlueZ's, and the signals carry Notifying then the new Value
        #expect(try read.arguments().first?.bytes == [87])
        #expect(try modeAfter.arguments().first?.bytes == [3])
        #expect(refused.map { "\($0)" }?.contains("0x13") == true)
        #expect(tooLong.map { "\($0)" }?.contains("InvalidValueLength") == true)
        #expect(readOnly.map { "\($0)" }?.contains("NotPermitted") == true)
        var iterator = signals.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(try first?.message.arguments()[1].entries?.first?.key == .string("Notifying"))
        #expect(try second?.message.arguments()[1].entries?.first?.value.bytes == [86])
        var eventIterator = events.makeAsyncIterator()
        if case .subscriptionChanged(_, _, let uuid, let mode)? = await eventIterator.next() {
            #expect(uuid == Self.level && mode == .notify)
        } else {
            Issue.record("no subscription event")
        }
        await peripheral.unpublish()
    }

    @Test func centralsConnectingAndLeavingAreReportedFromTheAdaptersDevices() async throws {
        // Given a published database, and a central that was connected before it (not the app's)
        let fake = try #require(FakeBlueZ.current)
        let before = try await fake.centralConnects("11:22:33:44:55:01")
        let (peripheral, _) = try await published(fake)
        let events = peripheral.peripheralEvents()

        // When two centrals connect, one leaves with a reason, the other without, and the first one
        let first = try await fake.centralConnects("11:22:33:44:55:66")
        let second = try await fake.centralConnects("11:22:33:44:55:77")
        try await fake.centralLeaves(first, reason: "org.bluez.Reason.Local")
        try await fake.centralLeaves(second)
        try await fake.centralLeaves(before)
        _ = try await fake.centralConnects("11:22:33:44:55:66")

        // Then each connection and loss of a central that came after publishing is reported once, in
        // order, with BlueZ's reason or the default; the earlier link's end is not
        var iterator = events.makeAsyncIterator()
        var seen: [PeripheralEvent] = []
        for _ in 0..<5 { if let event = await iterator.next() { seen.append(event) } }
        let a = DeviceID(try #require(BDAddress("11:22:33:44:55:66")), type: .public)
        let b = DeviceID(try #require(BDAddress("11:22:33:44:55:77")), type: .public)
        #expect(
            seen == [
                .centralConnected(a), .centralConnected(b), .centralDisconnected(a, reason: .localHostTerminated),
                .centralDisconnected(b, reason: .remoteUserTerminated), .centralConnected(a),
            ])
        try await fake.centralLeaves(first)
        await peripheral.unpublish()
    }
}
