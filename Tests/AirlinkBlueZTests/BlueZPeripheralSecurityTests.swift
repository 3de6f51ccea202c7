import AirlinkBlueZTestSupport
import AirlinkCore
import Foundation
import Synchronization
import Testing

@testable import AirlinkBlueZ

/// The peripheral role's security on the fake BlueZ: permissions as the GATT objects' flags bluetoothd reads, the
/// app's agent registered as the default one, its questions and a central's `Paired` reported as pairing events.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZPeripheralSecurityTests {
    static let service = BluetoothUUID(0xFFF0)
    static let secret = BluetoothUUID(0xFFF1)
    static let code = BluetoothUUID(0xFFF2)
    static let sized = BluetoothUUID(0xFFF3)

    /// A database with an encrypted value, an authenticated writable one with a protected descriptor, and one
    /// that needs a 16-byte key.
    private func published(_ fake: FakeBlueZ) async throws -> BlueZPeripheral {
        let peripheral = try BlueZPeripheral(busAddress: fake.address, environment: .live())
        let sixteen = try AttributePermissions.minimumKeySize(16)
        try await peripheral.publish(
            name: "Vault",
            services: [
                Service(Self.service) {
                    Characteristic(
                        Self.secret, properties: [.read, .notify], permissions: [.readable, .readEncryptionRequired],
                        value: UInt8(1))
                    Characteristic(
                        Self.code, properties: [.read, .write],
                        permissions: [.readable, .writable, .readAuthenticationRequired, .writeAuthenticationRequired],
                        value: UInt8(2)
                    )
                    .descriptor(
                        BluetoothUUID(0x2901), value: "code", permissions: [.readable, .readEncryptionRequired])
                    Characteristic(
                        Self.sized, properties: [.write], permissions: [.writable, sixteen],
                        value: UInt8(3))
                }
            ])
        return peripheral
    }

    /// The `Flags` of each exported object, by path, as bluetoothd reads them (GetManagedObjects).
    private func flags(_ peripheral: BlueZPeripheral, _ fake: FakeBlueZ) async throws -> [String: [String]] {
        let bluetoothd = try DBusConnection(bus: .address(fake.address))
        let objects =
            try await bluetoothd.call(
                destination: peripheral.busName, path: peripheral.applicationPath,
                interface: "org.freedesktop.DBus.ObjectManager", member: "GetManagedObjects", arguments: [],
                timeout: .seconds(5)
            ).arguments().first?.entries ?? []
        var flags: [String: [String]] = [:]
        for object in objects {
            guard case .objectPath(let path) = object.key else { continue }
            for interface in object.value.entries ?? [] {
                if let value = interface.value.entries?.first(where: { $0.key == .string("Flags") })?.value.strings {
                    flags[String(path.dropFirst(peripheral.applicationPath.count))] = value
                }
            }
        }
        return flags
    }

    /// The next `count` events of `events`, waiting 60 s at most for them.
    private func next(_ count: Int, of events: EventStream<PeripheralEvent>) async -> [PeripheralEvent] {
        await withTaskGroup(of: [PeripheralEvent].self) { group in
            group.addTask {
                var seen: [PeripheralEvent] = []
                for await event in events {
                    seen.append(event)
                    if seen.count == count { break }
                }
                return seen
            }
            group.addTask {
                // A deadline, not a pace, in real time because the fake BlueZ is another process: inside the whole
                // suite about 30 fixtures start at once on 2 cores, and events took over 10 s to arrive there (load
                // 7). try?: the sleep throws only when the events won and the group cancelled it.
                try? await Task.sleep(for: .seconds(60))
                return []
            }
            let first = await group.next() ?? []
            group.cancelAll()
            return first
        }
    }

    @Test func permissionsAreTheFlagsBluetoothdReads() async throws {
        // Given the fake BlueZ, when an app publishes protected values
        let fake = try #require(FakeBlueZ.current)
        let peripheral = try await published(fake)

        // Then bluetoothd reads encrypt and encrypt-authenticated flags beside the properties; a minimum key
        // size asks for encryption; the protected descriptor stays readable only when encrypted
        let flags = try await flags(peripheral, fake)
        #expect(flags["/service0/char0"] == ["read", "notify", "encrypt-read"])
        #expect(
            flags["/service0/char1"]
                == ["read", "write", "encrypt-authenticated-read", "encrypt-authenticated-write"])
        #expect(flags["/service0/char1/desc0"] == ["read", "encrypt-read"])
        #expect(flags["/service0/char2"] == ["write", "encrypt-write"])
        await peripheral.unpublish()
    }

    @Test func theAppsAgentIsTheDefaultAndItsAnswersArePairingEvents() async throws {
        // Given a published database and an app that confirms numbers, with a display and no bonding
        let fake = try #require(FakeBlueZ.current)
        let peripheral = try await published(fake)
        let confirmed = Mutex<[UInt32]>([])
        try await peripheral.setSecurity(
            PeripheralRoleSecurity(
                features: PairingFeatures(io: .displayYesNo, bonding: false, mitm: true),
                agent: PairingAgent(
                    enterPasskey: { _ in nil },
                    confirmNumber: { number in
                        confirmed.withLock { $0.append(number) }
                        return true
                    })))
        let events = peripheral.peripheralEvents()

        // When a central connects and pairs by Numeric Comparison
        let device = try await fake.centralConnects("11:22:33:44:55:66")
        try await fake.centralPairs(device, "confirm", passkey: 123_456)

        // Then the agent was registered with its capability and made the default, the adapter is not bondable,
        // the app confirmed the number, and it heard the request and the pairing, unbonded
        let seen = await next(3, of: events)
        let central = DeviceID(try #require(BDAddress("11:22:33:44:55:66")), type: .public)
        #expect(
            seen == [
                .centralConnected(central), .pairingRequested(central, method: .numericComparison),
                .paired(
                    central,
                    PairingResult(
                        method: .numericComparison, level: .authenticatedSecureConnections, keySize: 16,
                        bonded: false)),
            ])
        #expect(confirmed.withLock { $0 } == [123_456])
        let calls = try await fake.callLog().compactMap { $0["method"] as? String }
        #expect(calls.contains("RegisterAgent") && calls.contains("RequestDefaultAgent"))
        let registered = try await fake.callLog().first { $0["method"] as? String == "RegisterAgent" }
        #expect((registered?["args"] as? [String: String])?["capability"] == "DisplayYesNo")
        try await fake.centralLeaves(device)
        await peripheral.unpublish()
    }

    @Test func anAgentRefusingOrBluetoothdCancellingIsAFailedPairing() async throws {
        // Given a published database whose app refuses compared numbers
        let fake = try #require(FakeBlueZ.current)
        let peripheral = try await published(fake)
        try await peripheral.setSecurity(
            PeripheralRoleSecurity(features: PairingFeatures(io: .displayYesNo, mitm: true), agent: .refusing))
        let events = peripheral.peripheralEvents()

        // When a central's comparison is refused, then another request is cancelled by bluetoothd
        let device = try await fake.centralConnects("11:22:33:44:55:77")
        try await fake.centralPairs(device, "confirm", passkey: 111_111)
        let refused = await next(3, of: events)
        try await fake.centralPairs(device, "cancel", passkey: 222_222)
        let cancelled = await next(3, of: events)

        // Then the app heard each request and its failure: Numeric Comparison Failed, then no reason
        let central = DeviceID(try #require(BDAddress("11:22:33:44:55:77")), type: .public)
        #expect(
            refused == [
                .centralConnected(central), .pairingRequested(central, method: .numericComparison),
                .pairingFailed(central, reason: .numericComparisonFailed),
            ])
        #expect(cancelled.first == .pairingRequested(central, method: .numericComparison))
        #expect(cancelled.last == .pairingFailed(central, reason: nil))
        try await fake.centralLeaves(device)
        await peripheral.unpublish()
    }

    @Test func whatBluetoothdDecidesItselfIsRefused() async throws {
        // Given a BlueZ peripheral
        let fake = try #require(FakeBlueZ.current)
        let peripheral = try BlueZPeripheral(busAddress: fake.address, environment: .live())

        // When the app asks for a Security Request, or a 12-byte key
        var errors: [AirlinkError] = []
        for security in [
            PeripheralRoleSecurity(request: SecurityRequest()),
            PeripheralRoleSecurity(features: PairingFeatures(io: .displayOnly, maximumKeySize: 12)),
        ] {
            do throws(AirlinkError) {
                try await peripheral.setSecurity(security)
            } catch {
                errors.append(error)
            }
        }

        // Then each is refused as not supported, naming what
        #expect(errors.map(\.code) == [.operationNotSupported, .operationNotSupported])
        #expect(errors.first?.message.contains("Security Request") == true)
        #expect(errors.last?.message.contains("12 bytes") == true)
    }
}
