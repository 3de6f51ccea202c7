import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkTestSupport
import AirlinkTransportContract
import Foundation
import Testing

@testable import AirlinkBlueZ

/// BlueZ's behaviours the backend handles on purpose, on the fake BlueZ.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZBehaviourTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"
    let thermostatPath = FakeBlueZ.devicePath("C0:FF:EE:00:00:01")
    let temperaturePath = FakeBlueZ.devicePath("C0:FF:EE:00:00:01") + "/service000a/char000b"

    private func connected(_ fake: FakeBlueZ) async throws -> BlueZTransport {
        let transport = try await fake.transport()
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        return transport
    }

    @Test func scanSetsAnLEDiscoveryFilter() async throws {
        // Given a transport on the fixture
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()

        // When it scans for the Battery service with duplicates and an RSSI threshold
        try await transport.startScan(ScanFilter(services: [.battery], allowDuplicates: true), rssiThreshold: -70)
        await transport.stopScan()

        // Then BlueZ got Transport le, the UUID, DuplicateData and RSSI, before StartDiscovery
        let log = try await fake.callLog()
        let methods = log.compactMap { $0["method"] as? String }
        #expect(methods.prefix(3) == ["SetDiscoveryFilter", "StartDiscovery", "StopDiscovery"])
        let filter = try #require(log.first?["args"] as? [String: Any])
        #expect(filter["Transport"] as? String == "le")
        #expect(filter["UUIDs"] as? [String] == ["0000180f-0000-1000-8000-00805f9b34fb"])
        #expect(filter["DuplicateData"] as? Bool == true)
        #expect(filter["RSSI"] as? Int == -70)
    }

    @Test func rssiThresholdKeepsWeakDevicesOut() async throws {
        // Given a scan that wants at least -60 dBm (the thermostat is at -52, the battery at -67)
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        let events = transport.events()
        try await transport.startScan(ScanFilter(), rssiThreshold: -60)

        // Then only the thermostat is reported
        let world = BlueZContractWorld(fake: fake)
        let seen = Recorder<DeviceID>()
        _ = await world.first(events, within: .milliseconds(400)) { event -> Bool? in
            if case .advertisement(let id, _) = event { seen.append(id) }
            return nil
        }
        #expect(seen.values.contains(thermostat))
        #expect(!seen.values.contains(world.battery))
        await transport.stopScan()
    }

    @Test(arguments: ["normal", "reply-first", "resolve-early"])
    func connectWaitsForResolvedServices(mode: String) async throws {
        // Given a thermostat whose Connect reply, Connected, ServicesResolved and GATT objects come in this order
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        let world = BlueZContractWorld(fake: fake)
        let scanEvents = transport.events()
        try await transport.startScan(ScanFilter())
        _ = await world.first(scanEvents, within: .seconds(2)) { event -> Bool? in
            if case .advertisement(let id, _) = event, id == thermostat { return true }
            return nil
        }
        await transport.stopScan()
        try await fake.setConnectMode(thermostatPath, mode, delay: .milliseconds(20))

        // When it connects
        _ = try await transport.connect(thermostat, timeout: .seconds(5))

        // Then its services are there the moment connect returns: Generic Attribute (which bluetoothd exports) and
        // the thermostat's two
        let services = try await transport.discoverServices(thermostat, uuids: nil)
        #expect(services.count == 3)
        #expect(try await transport.read(thermostat, handle: ContractHandles.temperature) == [0x66, 0x08])
        await transport.disconnect(thermostat)
    }

    @Test func connectTimesOutWhenServicesNeverResolve() async throws {
        // Given a thermostat that connects but never resolves its services
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        await transport.disconnect(thermostat)
        try await fake.setConnectMode(thermostatPath, "never-resolve")
        let disconnects = try await fake.callLog().filter { $0["method"] as? String == "Disconnect" }.count

        // When it connects with a short timeout
        let began = ContinuousClock.now
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await transport.connect(thermostat, timeout: .milliseconds(300))
        }

        // Then it fails with timeout, promptly, and BlueZ's attempt is cancelled with Disconnect
        #expect(error?.code == .timeout)
        #expect(began.duration(to: .now) < .seconds(2))
        try await fake.waitForCall("Disconnect", count: disconnects + 1, within: .seconds(5))
        let methods = try await fake.callLog().compactMap { $0["method"] as? String }
        #expect(methods.suffix(2) == ["Connect", "Disconnect"])
    }

    @Test func abortByLocalIsARetryableConnectionFailure() async throws {
        // Given BlueZ failing the next Connect with le-connection-abort-by-local
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        try await fake.failNext(
            "Connect", on: thermostatPath, error: "org.bluez.Error.Failed", text: "le-connection-abort-by-local")

        // When the app connects, then retries
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        }
        let retry = try await transport.connect(thermostat, timeout: .seconds(5))

        // Then the first attempt is connectionFailed with BlueZ's name and text kept, and the retry works
        #expect(error?.code == .connectionFailed)
        #expect(error?.cause == .bluez(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))
        #expect(error?.message.contains("retry") == true)
        #expect(retry.mtu == 247)
        await transport.disconnect(thermostat)
    }

    @Test func inProgressBecomesOperationInProgress() async throws {
        // Given BlueZ answering InProgress to the next Connect
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        try await fake.failNext("Connect", on: thermostatPath, error: "org.bluez.Error.InProgress", text: "In Progress")

        // When the app connects
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        }

        // Then the error is operationInProgress, with the cause kept
        #expect(error?.code == .operationInProgress)
        #expect(error?.cause == .bluez(name: "org.bluez.Error.InProgress", message: "In Progress"))
    }

    @Test func secondConcurrentConnectIsOperationInProgress() async throws {
        // Given a slow connect under way
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        let world = BlueZContractWorld(fake: fake)
        let scanEvents = transport.events()
        try await transport.startScan(ScanFilter())
        _ = await world.first(scanEvents, within: .seconds(2)) { event -> Bool? in
            if case .advertisement(let id, _) = event, id == thermostat { return true }
            return nil
        }
        await transport.stopScan()
        try await fake.setConnectMode(thermostatPath, "normal", delay: .milliseconds(300))
        let connects = try await fake.callLog().filter { $0["method"] as? String == "Connect" }.count
        let first = Task { try await transport.connect(thermostat, timeout: .seconds(5)) }
        try await fake.waitForCall("Connect", count: connects + 1, within: .seconds(5))

        // When a second connect starts
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await transport.connect(thermostat, timeout: .seconds(5))
        }

        // Then it is refused at once and the first completes
        #expect(error?.code == .operationInProgress)
        _ = try await first.value
        await transport.disconnect(thermostat)
    }

    @Test func knownDeviceConnectsWithoutScan() async throws {
        // Given a paired peripheral BlueZ knows from before
        let fake = try await FakeBlueZ.fresh()
        try await fake.addPeripheral(
            json: #"{"name": "Paired", "address": "C0:FF:EE:00:00:09", "paired": true, "services": "#
                + #"[{"uuid": "180F", "characteristics": [{"uuid": "2A19", "flags": ["read"], "value": "2a"}]}]}"#)
        let transport = try await fake.transport()
        let paired: DeviceID = "C0:FF:EE:00:00:09"

        // When the app connects without scanning
        _ = try await transport.connect(paired, timeout: .seconds(5))

        // Then the link works
        #expect(try await transport.read(paired, handle: ATTHandle(0x000C)) == [0x2A])
        await transport.disconnect(paired)
    }

    @Test func unknownDeviceIsNotFound() async throws {
        // Given a transport that never scanned
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()

        // When it connects to a device BlueZ has not seen
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await transport.connect(thermostat, timeout: .seconds(1))
        }

        // Then the error says to scan
        #expect(error?.code == .deviceNotFound)
        #expect(error?.message.contains("scan") == true)
    }

    @Test func notificationBeforeStartNotifyReturnsIsDelivered() async throws {
        // Given a thermostat that notifies the instant its CCCD is written
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        try await fake.notifyOnSubscribe(temperaturePath, [0x01, 0x09])
        let events = transport.events()

        // When notifications are turned on
        let characteristic = GATTCharacteristic(
            uuid: .init(0x0000), declarationHandle: ATTHandle(0x000B), valueHandle: ContractHandles.temperature,
            properties: [.notify])
        try await transport.setNotifications(thermostat, characteristic: characteristic, mode: .notify)

        // Then the value BlueZ emitted before StartNotify returned is delivered
        let value = await BlueZContractWorld(fake: fake).first(events, within: .seconds(1)) { event -> [UInt8]? in
            if case .notification(_, let handle, let value) = event, handle == ContractHandles.temperature {
                return value
            }
            return nil
        }
        #expect(value == [0x01, 0x09])
        await transport.disconnect(thermostat)
    }

    @Test func writingTheCCCDTurnsNotificationsOn() async throws {
        // Given a connected thermostat
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        let events = transport.events()

        // When the app writes 01 00 to the temperature's CCCD (BlueZ forbids direct CCCD writes)
        try await transport.write(
            thermostat, handle: ContractHandles.temperatureCCCD, value: [0x01, 0x00], type: .withResponse)
        #expect(try await fake.notify(temperaturePath, [0x10, 0x09]))

        // Then notifications flow, through StartNotify
        let value = await BlueZContractWorld(fake: fake).first(events, within: .seconds(1)) { event -> [UInt8]? in
            if case .notification(_, _, let value) = event { return value }
            return nil
        }
        #expect(value == [0x10, 0x09])
        #expect(try await fake.callLog().contains { $0["method"] as? String == "StartNotify" })
        await transport.disconnect(thermostat)
    }

    @Test func serviceChangedIsReportedOnceAndHandlesGoStale() async throws {
        // Given a connected thermostat
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        let events = transport.events()

        // When its GATT database changes (Service Changed): one service, at other handles
        try await fake.changeServices(
            thermostatPath,
            json:
                #"[{"uuid": "180F", "handle": 32, "characteristics": "#
                + #"[{"uuid": "2A19", "flags": ["read"], "value": "63"}]}]"#
        )

        // Then .servicesChanged arrives, old handles are gone, and rediscovery gives the new database
        let world = BlueZContractWorld(fake: fake)
        let changes = Recorder<DeviceID>()
        _ = await world.first(events, within: .milliseconds(300)) { event -> Bool? in
            if case .servicesChanged(let id, _) = event { changes.append(id) }
            return nil
        }
        #expect(changes.values == [thermostat])
        let stale = await #expect(throws: AirlinkError.self) {
            _ = try await transport.read(thermostat, handle: ContractHandles.temperature)
        }
        #expect(stale?.code == .characteristicNotFound)
        let services = try await transport.discoverServices(thermostat, uuids: nil)
        #expect(services.map(\.uuid) == [.battery])
        #expect(services.first?.handles.lowerBound == ATTHandle(0x0020))
        #expect(try await transport.read(thermostat, handle: ATTHandle(0x0022)) == [0x63])
        await transport.disconnect(thermostat)
    }

    @Test func disconnectReasonFromBlueZIsKept() async throws {
        // Given a connected thermostat
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        let events = transport.events()

        // When BlueZ reports the peer closed the link
        try await fake.dropLink(thermostatPath, reason: "org.bluez.Reason.Remote")

        // Then the reason is Remote User Terminated Connection
        let reason = await BlueZContractWorld(fake: fake).first(events, within: .seconds(1)) {
            event -> DisconnectionReason? in
            if case .disconnected(_, let reason) = event { return reason }
            return nil
        }
        #expect(reason == .remoteUserTerminated)
    }

    @Test func readRSSIPrefersHCIThenBlueZ() async throws {
        // Given a connected thermostat, first with HCI giving -40, then with HCI unavailable
        let fake = try await FakeBlueZ.fresh()
        let world = BlueZContractWorld(fake: fake)
        let withHCI = try await fake.transport(hci: FixedRSSIHCI(rssi: -40))
        _ = try await world.scanAndConnect(withHCI, thermostat)

        // Then HCI's value wins, and without HCI BlueZ's last RSSI (-52) is used
        #expect(try await withHCI.readRSSI(thermostat) == -40)
        let withoutHCI = try await fake.transport()
        _ = try await withoutHCI.connect(thermostat, timeout: .seconds(2))
        #expect(try await withoutHCI.readRSSI(thermostat) == -52)
        await withHCI.disconnect(thermostat)
    }

    @Test func readRSSIWithoutAnySourceNamesTheErrno() async throws {
        // Given a paired peripheral whose RSSI BlueZ does not know, and no HCI
        let fake = try await FakeBlueZ.fresh()
        try await fake.addPeripheral(
            json: #"{"address": "C0:FF:EE:00:00:0A", "paired": true, "rssi": null, "services": "#
                + #"[{"uuid": "180F", "characteristics": [{"uuid": "2A19", "flags": ["read"], "value": "2a"}]}]}"#)
        let transport = try await fake.transport()
        let device: DeviceID = "C0:FF:EE:00:00:0A"
        _ = try await transport.connect(device, timeout: .seconds(2))

        // When the app reads the RSSI
        let error = await #expect(throws: AirlinkError.self) { _ = try await transport.readRSSI(device) }

        // Then the error explains HCI is unavailable (errno 97) and how to fix it
        #expect(error?.code == .operationNotSupported)
        #expect(error?.message.contains("errno 97") == true)
        #expect(error?.message.contains("modprobe bluetooth") == true)
        await transport.disconnect(device)
    }
}

/// An HCI double that reports a fixed RSSI.
struct FixedRSSIHCI: KernelHCI {
    var rssi: Int
    func adapters() throws(AirlinkError) -> [HCIAdapter] { [] }
    func readRSSI(adapter: String, address: BDAddress) throws(AirlinkError) -> Int { rssi }
}
