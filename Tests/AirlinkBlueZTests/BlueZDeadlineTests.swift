import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkTransportContract
import Foundation
import Testing

@testable import AirlinkBlueZ

/// Nothing waits forever: calls BlueZ never answers end at their deadline on a quiet bus, and the
/// adapter going off fails what is pending at once.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZDeadlineTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"
    let thermostatPath = FakeBlueZ.devicePath("C0:FF:EE:00:00:01")

    /// A transport whose calls wait `timeout` at most, connected to the thermostat.
    private func connected(_ fake: FakeBlueZ, timeout: Duration = .seconds(2)) async throws -> BlueZTransport {
        var configuration = fake.configuration()
        configuration.operationTimeout = timeout
        let transport = try await BlueZTransport.open(configuration)
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        // A read answered: the transport has handled everything BlueZ sent before, and its bus is quiet.
        _ = try await transport.read(thermostat, handle: ContractHandles.temperature)
        return transport
    }

    @Test func neverAnsweredReadEndsAtItsDeadlineOnAQuietBus() async throws {
        // Given a thermostat on a transport whose calls wait 2 s, and a ReadValue BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        try await fake.hangNext("ReadValue")

        // When the temperature is read and nothing else happens on the bus
        let outcome = try await endedWithin(.seconds(6)) {
            try await transport.read(self.thermostat, handle: ContractHandles.temperature)
        }

        // Then it fails with timeout at its deadline, not later (nor never)
        let (result, took) = try #require(outcome, "the read was still waiting after 6 s")
        #expect(code(result) == .timeout)
        #expect(took >= .seconds(2) && took < .seconds(4), "took \(took)")
        print("never-answered ReadValue, deadline 2 s: timeout after \(took)")
    }

    @Test func neverAnsweredDisconnectEndsAtTheConfiguredDeadline() async throws {
        // Given a thermostat on a transport whose calls wait 2 s, and a Disconnect BlueZ never answers
        // (nor acts on: the link stays up)
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        try await fake.hangNext("Disconnect")

        // When the app disconnects
        let outcome = try await endedWithin(.seconds(8)) { await transport.disconnect(self.thermostat) }

        // Then disconnect returns at the configured 2 s, not at a fixed 10 s
        let (_, took) = try #require(outcome, "disconnect was still waiting after 8 s")
        #expect(took >= .seconds(2) && took < .seconds(4), "took \(took)")
    }

    @Test(arguments: ["WriteValue", "StartNotify"])
    func otherNeverAnsweredGATTCallsEndAtTheirDeadline(method: String) async throws {
        // Given a connected thermostat and a GATT call BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        try await fake.hangNext(method)

        // When the unit is written, or notifications of the temperature are enabled
        let outcome = try await endedWithin(.seconds(6)) {
            // A CCCD write is StartNotify on BlueZ.
            let handle = method == "WriteValue" ? ContractHandles.unit : ContractHandles.temperatureCCCD
            let value: [UInt8] = method == "WriteValue" ? [1] : [1, 0]
            try await transport.write(self.thermostat, handle: handle, value: value, type: .withResponse)
        }

        // Then the call fails with timeout about 2 s later
        let (result, took) = try #require(outcome, "\(method) was still waiting after 6 s")
        #expect(code(result) == .timeout)
        #expect(took < .seconds(4), "took \(took)")
    }

    @Test func neverAnsweredStartDiscoveryEndsAtItsDeadline() async throws {
        // Given a transport whose calls wait 2 s, and a StartDiscovery BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        var configuration = fake.configuration()
        configuration.operationTimeout = .seconds(2)
        let transport = try await BlueZTransport.open(configuration)
        try await transport.startScan(ScanFilter())
        await transport.stopScan()
        try await fake.hangNext("StartDiscovery")

        // When a scan starts
        let outcome = try await endedWithin(.seconds(6)) { try await transport.startScan(ScanFilter()) }

        // Then it fails with timeout at its deadline
        let (result, took) = try #require(outcome, "startScan was still waiting after 6 s")
        #expect(code(result) == .timeout)
        #expect(took < .seconds(4), "took \(took)")
    }

    @Test func neverAnsweredObjectTreeEndsOpeningAtItsDeadline() async throws {
        // Given a BlueZ that never answers GetManagedObjects, and a transport whose calls wait 1 s
        let fake = try await FakeBlueZ.fresh()
        try await fake.hangNext("GetManagedObjects")
        var configuration = fake.configuration()
        configuration.operationTimeout = .seconds(1)
        let limited = configuration

        // When a transport is opened
        let outcome = try await endedWithin(.seconds(5)) { _ = try await BlueZTransport.open(limited) }

        // Then opening fails with timeout at the deadline
        let (result, took) = try #require(outcome, "opening was still waiting after 5 s")
        #expect(code(result) == .timeout)
        #expect(took < .milliseconds(2_500), "took \(took)")
    }

    @Test func readPendingWhenTheAdapterGoesOffFailsAtOnce() async throws {
        // Given a connected thermostat and a read BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake, timeout: .seconds(5))
        try await fake.hangNext("ReadValue")

        // When the adapter goes off as bluetoothd reports it: Powered first, the link 3 s later
        let outcome = try await endedWithin(.seconds(4)) {
            try await transport.read(self.thermostat, handle: ContractHandles.temperature)
        } after: {
            try await fake.waitForCall("ReadValue")
            try await fake.powerOffFirst(linkDelay: .seconds(3))
        }

        // Then the read fails at once with adapterPoweredOff, and the link's end is reported
        let (result, took) = try #require(outcome, "the read was still waiting after 4 s")
        #expect(code(result) == .adapterPoweredOff)
        #expect(took < .seconds(1), "took \(took)")
        #expect(await transport.adapterState == .poweredOff)
        let next = await #expect(throws: AirlinkError.self) {
            _ = try await transport.read(thermostat, handle: ContractHandles.temperature)
        }
        #expect(next?.code == .adapterPoweredOff)
        try await fake.setPowered(true)
    }

    @Test func connectPendingWhenTheAdapterGoesOffFailsAtOnce() async throws {
        // Given a thermostat whose link takes 10 s to come up
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        let world = BlueZContractWorld(fake: fake)
        try await transport.startScan(ScanFilter())
        _ = await world.first(transport.events(), within: .seconds(2)) { event -> Bool? in
            if case .advertisement(let id, _) = event, id == thermostat { return true }
            return nil
        }
        await transport.stopScan()
        try await fake.setConnectMode(thermostatPath, "normal", delay: .seconds(10))

        // When the adapter goes off while connecting
        let outcome = try await endedWithin(.seconds(6)) {
            try await transport.connect(self.thermostat, timeout: .seconds(8))
        } after: {
            try await fake.waitForCall("Connect")
            try await fake.powerOffFirst(linkDelay: .zero)
        }

        // Then connect fails at once with adapterPoweredOff, not at its 8 s deadline
        let (result, took) = try #require(outcome, "connect was still waiting after 6 s")
        #expect(code(result) == .adapterPoweredOff)
        #expect(took < .seconds(1), "took \(took)")
        try await fake.setPowered(true)
    }

    @Test func scanStartingWhenTheAdapterGoesOffFailsAtOnce() async throws {
        // Given a StartDiscovery BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        try await fake.hangNext("StartDiscovery")

        // When the adapter goes off while the scan starts
        let outcome = try await endedWithin(.seconds(4)) {
            try await transport.startScan(ScanFilter())
        } after: {
            try await fake.waitForCall("StartDiscovery")
            try await fake.powerOffFirst(linkDelay: .zero)
        }

        // Then startScan fails at once with adapterPoweredOff, not at its 5 s deadline
        let (result, took) = try #require(outcome, "startScan was still waiting after 4 s")
        #expect(code(result) == .adapterPoweredOff)
        #expect(took < .seconds(1), "took \(took)")
        try await fake.setPowered(true)
    }
}

/// The peripheral role's registration calls end at their deadline too.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZPeripheralDeadlineTests {
    @Test(arguments: ["RegisterApplication", "RegisterAdvertisement"])
    func neverAnsweredRegistrationEndsAtItsDeadline(method: String) async throws {
        // Given a peripheral whose calls wait 1 s, and a registration BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let peripheral = try BlueZPeripheral(
            busAddress: fake.address, environment: .live(), operationTimeout: .seconds(1))
        let services = [
            Service(BluetoothUUID(0x180F)) {
                Characteristic(BluetoothUUID(0x2A19), properties: [.read], value: UInt8(87))
            }
        ]
        if method == "RegisterAdvertisement" { try await peripheral.publish(name: "Test", services: services) }
        try await fake.hangNext(method)

        // When the app publishes, or advertises
        let outcome = try await endedWithin(.seconds(5)) {
            if method == "RegisterApplication" {
                try await peripheral.publish(name: "Test", services: services)
            } else {
                try await peripheral.startAdvertising(Advertising { LocalName("Test") })
            }
        } after: {
            try await fake.waitForCall(method)
        }

        // Then it fails with timeout at its deadline
        let (result, took) = try #require(outcome, "\(method) was still waiting after 5 s")
        #expect(code(result) == .timeout)
        #expect(took < .seconds(4), "took \(took)")
    }
}
