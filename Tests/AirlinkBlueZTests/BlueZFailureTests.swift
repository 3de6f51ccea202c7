import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkTestSupport
import AirlinkTransportContract
import Foundation
import Testing

@testable import AirlinkBlueZ

/// Bad input and failures: typed errors with clear messages, pending operations failed promptly,
/// nothing hangs.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZFailureTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"
    let thermostatPath = FakeBlueZ.devicePath("C0:FF:EE:00:00:01")

    private func connected(_ fake: FakeBlueZ) async throws -> BlueZTransport {
        let transport = try await fake.transport()
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        return transport
    }

    /// Starts a read that BlueZ will never answer, and returns its task.
    private func hungRead(_ fake: FakeBlueZ, _ transport: BlueZTransport) async throws -> Task<[UInt8], any Error> {
        try await fake.hangNext("ReadValue")
        let task = Task { try await transport.read(thermostat, handle: ContractHandles.temperature) }
        try await fake.waitForCall("ReadValue")
        return task
    }

    @Test(arguments: ["usb0", "hci", "HCI0", "hci0/dev", "hci-1", ""])
    func invalidAdapterNamesAreRefused(name: String) async throws {
        // Given the fixture, when a transport is opened on an adapter name that is not hciN
        let fake = try await FakeBlueZ.fresh()
        let error = await #expect(throws: AirlinkError.self) { _ = try await fake.transport(adapter: name) }

        // Then it is an invalid argument whose message shows the form to write
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("hci0") == true)
    }

    @Test func missingAdapterNamesThoseThereAreAndTheKernelState() async throws {
        // Given a fixture with hci0 only, on a machine without kernel Bluetooth
        let fake = try await FakeBlueZ.fresh()

        // When a transport is opened on hci1
        let error = await #expect(throws: AirlinkError.self) { _ = try await fake.transport(adapter: "hci1") }

        // Then the message names hci1, the adapter there is, and the errno with its fix
        #expect(error?.code == .transportUnavailable)
        let message = error?.message ?? ""
        #expect(message.contains("no adapter hci1") && message.contains("hci0"), "\(message)")
        #expect(message.contains("errno 97") && message.contains("modprobe bluetooth"), "\(message)")
    }

    @Test func poweredOffAdapterRefusesWorkAndReportsTheOrder() async throws {
        // Given a connected thermostat
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        let events = transport.events()

        // When the adapter powers off
        try await fake.setPowered(false)

        // Then the link's end comes before the adapter's state change
        let recorder = Recorder<TransportEvent>()
        _ = await BlueZContractWorld(fake: fake).first(events, within: .seconds(1)) { event -> Bool? in
            recorder.append(event)
            if case .adapterStateChanged = event { return true }
            return nil
        }
        #expect(
            recorder.values == [
                .disconnected(thermostat, reason: .localHostTerminated), .adapterStateChanged(.poweredOff),
            ]
        )
        #expect(await transport.adapterState == .poweredOff)

        // And scanning and connecting fail at once with adapterPoweredOff and the fix
        let scan = await #expect(throws: AirlinkError.self) { try await transport.startScan(ScanFilter()) }
        #expect(scan?.code == .adapterPoweredOff)
        #expect(scan?.message.contains("bluetoothctl power on") == true)
        let connect = await #expect(throws: AirlinkError.self) {
            _ = try await transport.connect(thermostat, timeout: .seconds(1))
        }
        #expect(connect?.code == .adapterPoweredOff)
        try await fake.setPowered(true)
    }

    @Test func pendingReadFailsPromptlyWhenTheLinkDrops() async throws {
        // Given a connected thermostat and a read BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        let read = try await hungRead(fake, transport)

        // When the link drops
        let began = ContinuousClock.now
        try await fake.dropLink(thermostatPath)

        // Then the read fails with linkLost at once
        let error = await #expect(throws: AirlinkError.self) { _ = try await read.value }
        #expect(error?.code == .linkLost)
        #expect(began.duration(to: .now) < .seconds(1))
    }

    @Test func deviceRemovedWhileConnected() async throws {
        // Given a connected thermostat and a read BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        let events = transport.events()
        let read = try await hungRead(fake, transport)

        // When BlueZ drops the device object without a disconnection first
        try await fake.removeDevice(thermostatPath, abrupt: true)

        // Then the read fails with linkLost, the link's end is announced, and connect says scan again
        let error = await #expect(throws: AirlinkError.self) { _ = try await read.value }
        #expect(error?.code == .linkLost)
        #expect(error?.message.contains("removed") == true)
        let ended = await BlueZContractWorld(fake: fake).first(events, within: .seconds(1)) { event -> Bool? in
            if case .disconnected(let id, _) = event, id == thermostat { return true }
            return nil
        }
        #expect(ended == true)
        let connect = await #expect(throws: AirlinkError.self) {
            _ = try await transport.connect(thermostat, timeout: .seconds(1))
        }
        #expect(connect?.code == .deviceNotFound)
    }

    @Test func bluetoothdLeavingTheBusFailsEverything() async throws {
        // Given a connected thermostat and a read BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        let read = try await hungRead(fake, transport)

        // When bluetoothd leaves the bus
        try await fake.releaseName()

        // Then the read fails, the adapter is unavailable, and new work fails at once
        let error = await #expect(throws: AirlinkError.self) { _ = try await read.value }
        #expect(error?.code == .linkLost)
        guard case .unavailable(let why) = await transport.adapterState else {
            Issue.record("the adapter should be unavailable")
            return
        }
        #expect(why.contains("bluetoothd"))
        let scan = await #expect(throws: AirlinkError.self) { try await transport.startScan(ScanFilter()) }
        #expect(scan?.code == .transportUnavailable)

        // And a new transport says BlueZ is not running, and how to start it
        let reopen = await #expect(throws: AirlinkError.self) { _ = try await fake.transport() }
        #expect(reopen?.code == .transportUnavailable)
        #expect(reopen?.message.contains("systemctl start bluetooth") == true)
    }

    /// A ReadValue reply without the bytes: a string in their place, or no value at all (not an empty value).
    @Test(arguments: [("a string", "\"ay\""), ("nothing", "carried no value")])
    func readReplyWithoutTheBytesIsMalformedData(answer: String, saying: String) async throws {
        // Given a connected thermostat whose next ReadValue answers a string instead of bytes, or nothing
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        if answer == "nothing" {
            try await fake.emptyReplyNext("ReadValue")
        } else {
            try await fake.wrongSignatureNext("ReadValue")
        }

        // When the temperature is read
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await transport.read(thermostat, handle: ContractHandles.temperature)
        }

        // Then it is malformedData saying what was wrong (the signatures, or the missing value); the link still works
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains(saying) == true)
        #expect(try await transport.read(thermostat, handle: ContractHandles.temperature) == [0x66, 0x08])
        await transport.disconnect(thermostat)
    }

    @Test func wrongSignatureObjectTreeFailsOpening() async throws {
        // Given BlueZ answering GetManagedObjects with a string
        let fake = try await FakeBlueZ.fresh()
        try await fake.wrongSignatureNext("GetManagedObjects")

        // When a transport is opened
        let error = await #expect(throws: AirlinkError.self) { _ = try await fake.transport() }

        // Then it is malformedData, not a crash
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("a{oa{sa{sv}}}") == true)
    }

    @Test func unreachableBusIsTransportUnavailable() async throws {
        // Given a bus address where nothing listens
        let configuration = BlueZTransport.Configuration(busAddress: "unix:path=/nonexistent/airlink-bus")

        // When a transport is opened
        let error = await #expect(throws: AirlinkError.self) { _ = try await BlueZTransport.open(configuration) }

        // Then the message says the bus cannot be reached and how to check dbus
        #expect(error?.code == .transportUnavailable)
        #expect(error?.message.contains("is dbus running") == true)
    }

    @Test func bluezErrorsKeepTheirNameAndText() async throws {
        // Given a connected thermostat and a write BlueZ refuses as not permitted
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        try await fake.failNext("WriteValue", error: "org.bluez.Error.NotAuthorized", text: "Not Authorized")

        // When the unit is written
        let error = await #expect(throws: AirlinkError.self) {
            try await transport.write(thermostat, handle: ContractHandles.unit, value: [1], type: .withResponse)
        }

        // Then the ATT error is Insufficient Authorization on the handle, and the D-Bus name is in the message
        #expect(error?.code == .attribute)
        #expect(error?.cause == .att(.insufficientAuthorization, handle: ContractHandles.unit))
        #expect(error?.message.contains("org.bluez.Error.NotAuthorized") == true)
        await transport.disconnect(thermostat)
    }

    @Test func cancellingAReadAbandonsIt() async throws {
        // Given a connected thermostat and a read BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        let read = try await hungRead(fake, transport)

        // When its task is cancelled
        read.cancel()

        // Then it fails with cancelled, and the link still works
        let error = await #expect(throws: AirlinkError.self) { _ = try await read.value }
        #expect(error?.code == .cancelled)
        #expect(try await transport.read(thermostat, handle: ContractHandles.temperature) == [0x66, 0x08])
        await transport.disconnect(thermostat)
    }
}

/// The bus going away mid-operation: a suite of its own, since it stops its fixture.
@Suite(.serialized)
struct BlueZBusLossTests {
    @Test func stoppingTheBusFailsPendingWorkPromptly() async throws {
        // Given a connected thermostat on a fixture of its own, and a read BlueZ never answers
        let fake = try await FakeBlueZ.start()
        defer { fake.stop() }
        let transport = try await fake.transport()
        let thermostat: DeviceID = "C0:FF:EE:00:00:01"
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        let events = transport.events()
        try await fake.hangNext("ReadValue")
        let read = Task { try await transport.read(thermostat, handle: ContractHandles.temperature) }
        try await fake.waitForCall("ReadValue")

        // When the whole fixture (bus and BlueZ) stops
        let began = ContinuousClock.now
        fake.stop()

        // Then the read fails with linkLost promptly, the link ends, then the adapter is unavailable
        let error = await #expect(throws: AirlinkError.self) { _ = try await read.value }
        #expect(error?.code == .linkLost)
        #expect(began.duration(to: .now) < .seconds(2))
        let recorder = Recorder<TransportEvent>()
        _ = await BlueZContractWorld(fake: fake).first(events, within: .seconds(1)) { event -> Bool? in
            recorder.append(event)
            if case .adapterStateChanged = event { return true }
            return nil
        }
        #expect(recorder.values.first == .disconnected(thermostat, reason: .localHostTerminated))
        guard case .adapterStateChanged(.unavailable)? = recorder.values.last else {
            Issue.record("expected the adapter to become unavailable, got \(recorder.values)")
            return
        }

        // And new work fails at once
        let next = await #expect(throws: AirlinkError.self) {
            _ = try await transport.read(thermostat, handle: ContractHandles.temperature)
        }
        #expect(next?.code == .transportUnavailable)
    }
}
