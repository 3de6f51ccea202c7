import Airlink
import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import Foundation
import Testing

@testable import AirlinkBlueZ

/// `airlink inspect --transport bluez` against the fake BlueZ, with the test in bluetoothd's place:
/// it finds the registered application, reads, writes and subscribes over the private bus, and a
/// central connects and leaves; the command prints what happened and unregisters at SIGINT.
@Suite(.fakeBlueZ(), .serialized) struct InspectOnBlueZTests {
    @Test func publishedValuesAnswerBluetoothdAndTheCommandPrintsWhatCentralsDid() async throws {
        // Given the fake BlueZ and `airlink inspect` publishing three values on it
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        let running = try cli.start([
            "inspect", "--transport", "bluez", "--name", "Test Server", "--value", "temperature=21.5",
            "--value", "enabled=true", "--value", "label=kitchen",
        ])
        let registration = try await Self.registration(fake, running)
        let bluetoothd = try DBusConnection(bus: .address(fake.address))
        let app = try await Self.application(bluetoothd, registration)

        // When bluetoothd reads each value, a central connects, writes enabled (validly, then 0x07),
        // subscribes to the temperature and leaves
        let characteristic = "org.bluez.GattCharacteristic1"
        func call(_ path: String, _ member: String, _ arguments: [DBusValue]) async throws -> DBusMessage {
            try await bluetoothd.call(
                destination: registration.sender, path: path, interface: characteristic, member: member,
                arguments: arguments, timeout: .seconds(5))
        }
        let temperature = try #require(app["temperature"])
        let enabled = try #require(app["enabled"])
        let label = try #require(app["label"])
        let read = try await call(temperature, "ReadValue", [.properties([])]).arguments().first?.bytes
        let labelBytes = try await call(label, "ReadValue", [.properties([])]).arguments().first?.bytes
        let central = try await fake.centralConnects("11:22:33:44:55:66")
        _ = try await call(enabled, "WriteValue", [.bytes([0]), .properties([])])
        let refused = await #expect(throws: DBusError.self) {
            _ = try await call(enabled, "WriteValue", [.bytes([7]), .properties([])])
        }
        let enabledAfter = try await call(enabled, "ReadValue", [.properties([])]).arguments().first?.bytes
        _ = try await call(temperature, "StartNotify", [])
        try await fake.centralLeaves(central, reason: "org.bluez.Reason.Remote")
        try await running.waitForOutput(containing: "left: Remote User Terminated Connection")
        running.interrupt()
        let result = try await running.wait()

        // Then bluetoothd read the values' encodings and the write landed while 0x07 was refused
        #expect(read == Array(withUnsafeBytes(of: (21.5).bitPattern.littleEndian) { Array($0) }))
        #expect(labelBytes == Array("kitchen".utf8))
        #expect(enabledAfter == [0])
        #expect(refused.map { "\($0)" }?.contains("0x13") == true)

        // And the command printed the values, each thing the central did in order, and stopped cleanly
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "inspector \"Test Server\" on bluez:hci0 publishes "
                + "temperature = 21.5, enabled = true, label = \"kitchen\"",
            "\(result)")
        let expected = [
            "central 11:22:33:44:55:66 connected", "central wrote enabled = false",
            "central's write to enabled refused: Value Not Allowed (0x13)", "central subscribed to temperature",
            "central 11:22:33:44:55:66 left: Remote User Terminated Connection (0x13)",
            "inspector \"Test Server\" stopped",
        ]
        for line in expected { #expect(lines.contains(line), "missing \(line) in \(result)") }
        #expect(lines.last == "inspector \"Test Server\" stopped")
        let unregistered = try await fake.callLog().compactMap { $0["method"] as? String }
        #expect(unregistered.contains("UnregisterApplication"))
        #expect(unregistered.contains("UnregisterAdvertisement"))
    }

    @Test func badValuesAreRefusedBeforeAnythingIsPublished() async throws {
        // Given the fake BlueZ, When --value is malformed, duplicated, or missing
        let fake = try #require(FakeBlueZ.current)
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        let malformed = try await cli.run("inspect", "--transport", "bluez", "--value", "temperature")
        let twice = try await cli.run("inspect", "--transport", "bluez", "--value", "a=1", "--value", "a=2")
        let none = try await cli.run("inspect", "--transport", "bluez")

        // Then each exits 64 with a message that says what to write
        #expect(malformed.status == 64 && malformed.stderr.contains("IDENTIFIER=VALUE"), "\(malformed)")
        #expect(twice.status == 64 && twice.stderr.contains("given twice"), "\(twice)")
        #expect(none.status == 64 && none.stderr.contains("at least one --value"), "\(none)")
    }

    @Test func aProtectedValueIsFlaggedAndPairingRequestsArePrinted() async throws {
        // Given `airlink inspect` on the fake BlueZ protecting code with authentication
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        let running = try cli.start([
            "inspect", "--transport", "bluez", "--value", "code=1234", "--value", "open=1", "--protect",
            "code:authenticated",
        ])
        _ = try await Self.registration(fake, running)

        // When a central connects and pairs, bluetoothd asking the app's agent to display a passkey
        let central = try await fake.centralConnects("11:22:33:44:55:66")
        try await fake.centralPairs(central, "display", passkey: 123_456)
        try await running.waitForOutput(containing: "paired with 11:22:33:44:55:66")
        running.interrupt()
        let result = try await running.wait()

        // Then the agent was registered as the default with a display, and the command printed the passkey, the
        // request with its method and the pairing
        #expect(result.status == 0, "\(result)")
        let calls = try await fake.callLog()
        let registered = calls.first { $0["method"] as? String == "RegisterAgent" }
        #expect((registered?["args"] as? [String: String])?["capability"] == "DisplayOnly")
        #expect(calls.contains { $0["method"] as? String == "RequestDefaultAgent" })
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("inspector displays passkey 123456"), "\(result)")
        #expect(lines.contains("a central asks to pair: passkey entry (peripheral displays) (11:22:33:44:55:66)"))
        #expect(lines.contains { $0.hasPrefix("paired with 11:22:33:44:55:66: passkey entry (peripheral displays)") })
    }

    /// The application's registration in the fixture's call log: who registered, and where.
    static func registration(_ fake: FakeBlueZ, _ running: CLI.Running) async throws -> (sender: String, path: String) {
        // The command prints its `publishes` line once the inspector started: its application and advertisement
        // registered, bluetoothd having answered both.
        try await running.waitForOutput(containing: " publishes ", within: .seconds(30))
        let calls = try await fake.callLog()
        let advertised = calls.contains { $0["method"] as? String == "RegisterAdvertisement" }
        guard advertised,
            let application = calls.first(where: { $0["method"] as? String == "RegisterApplication" }),
            let arguments = application["args"] as? [String: String], let sender = arguments["sender"],
            let path = arguments["object"]
        else {
            running.interrupt()
            throw CLIFailure(
                description: "airlink inspect started without registering both: \(calls)\n\(try await running.wait())")
        }
        return (sender, path)
    }

    /// The application's characteristics by the identifier their User Description holds.
    static func application(_ bluetoothd: DBusConnection, _ registration: (sender: String, path: String))
        async throws -> [String: String]
    {
        let objects =
            try await bluetoothd.call(
                destination: registration.sender, path: registration.path,
                interface: "org.freedesktop.DBus.ObjectManager", member: "GetManagedObjects", timeout: .seconds(5)
            ).arguments().first?.entries ?? []
        var identifiers: [String: String] = [:]
        for entry in objects {
            guard case .objectPath(let path) = entry.key,
                let descriptor = entry.value.entries?.first(where: { $0.key == .string("org.bluez.GattDescriptor1") }),
                descriptor.value.entries?.first(where: { $0.key == .string("UUID") })?.value.string?.lowercased()
                    == "00002901-0000-1000-8000-00805f9b34fb",
                let owner = descriptor.value.entries?.first(where: { $0.key == .string("Characteristic") })?.value
                    .string
            else { continue }
            let value = try await bluetoothd.call(
                destination: registration.sender, path: path, interface: "org.bluez.GattDescriptor1",
                member: "ReadValue", arguments: [.properties([])], timeout: .seconds(5)
            ).arguments().first?.bytes
            identifiers[String(decoding: value ?? [], as: UTF8.self)] = owner
        }
        return identifiers
    }
}

/// The command under test failed before the test could play its part.
struct CLIFailure: Error, CustomStringConvertible {
    var description: String
}

/// `airlink observe --transport bluez`: an inspector on the fake BlueZ's air, exported from a real
/// `Inspector`'s database (so the encoding is the one inspectors publish), found, listed and followed.
@Suite(.fakeBlueZ(), .serialized) struct ObserveOnBlueZTests {
    @Test func observeFindsListsAndFollowsAnInspectorOnBlueZ() async throws {
        // Given the fake BlueZ with a peripheral serving an inspector's database and advertisement
        let fake = try await FakeBlueZ.fresh()
        let capture = CapturingPeripheral()
        let inspector = Inspector(name: "Test Server", transport: capture, environment: .live())
        try inspector.inspect("temperature", initialValue: .double(21.5), options: [.read, .notify])
        try inspector.inspect("enabled", initialValue: .bool(true), options: [.read, .write])
        try await inspector.start()
        let spec = try capture.spec(id: "C0:FF:EE:00:00:42")
        let peripheral = try #require(try BlueZFixtureDescription([spec]).peripherals.first)
        let device = try await fake.addPeripheral(
            json: String(decoding: try JSONEncoder().encode(peripheral), as: UTF8.self))
        let temperature = InspectorLayout.characteristicUUID(index: 0, type: .double)

        // When `airlink observe` runs on BlueZ, and the peripheral notifies a new temperature once subscribed
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        try await fake.notifyOnSubscribe(
            Self.characteristicPath(device, peripheral, temperature),
            Array(withUnsafeBytes(of: (22.5).bitPattern.littleEndian) { Array($0) }))
        let result = try await cli.run(
            "observe", "Test Server", "--transport", "bluez", "--timeout", "3s", "--duration", "1s")

        // Then it prints the inspector, its values with their types, options and current values, and the change
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map { String($0) }
        #expect(lines.first?.hasSuffix("\"Test Server\" C0:FF:EE:00:00:42") == true, "\(result)")
        #expect(lines.contains("  temperature  Double  [read,notify]  21.5"), "\(result)")
        #expect(lines.contains("  enabled  Bool  [read,write]  true"), "\(result)")
        #expect(lines.contains { $0.hasSuffix("temperature = 22.5") }, "\(result)")
    }

    static func hex4(_ value: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// The object path of a characteristic of an added peripheral, as the fixture names it.
    static func characteristicPath(
        _ device: String, _ peripheral: BlueZFixtureDescription.Peripheral, _ uuid: BluetoothUUID
    ) throws -> String {
        for service in peripheral.services {
            for characteristic in service.characteristics where characteristic.uuid == "\(uuid)" {
                return device + "/service\(hex4(service.handle))/char\(hex4(characteristic.handle))"
            }
        }
        throw CLIFailure(description: "no characteristic \(uuid)")
    }
}

/// A peripheral role that keeps what it was asked to publish and advertise, for exporting it.
final class CapturingPeripheral: PeripheralTransport, @unchecked Sendable {
    // @unchecked: used from one test at a time.
    var services: [Service] = []
    var advertising: Advertising?
    var name = "capture"
    var publishedName = ""
    var peripheralAddress: DeviceID { "C0:00:00:00:00:00" }
    func peripheralEvents() -> EventStream<PeripheralEvent> { .finished() }
    func publish(name: String, services: [Service]) async throws(AirlinkError) {
        publishedName = name
        self.services = services
    }
    func unpublish() async {}
    func startAdvertising(_ advertising: Advertising) async throws(AirlinkError) { self.advertising = advertising }
    func stopAdvertising() async {}
    func updateValue(_ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID)
        async throws(AirlinkError)
    {}

    /// A peripheral spec of what was published, at `id`.
    func spec(id: DeviceID) throws -> PeripheralSpec {
        var spec = PeripheralSpec(name: publishedName, id: id) {}
        spec.services = services
        spec.advertising = advertising
        return spec
    }
}
