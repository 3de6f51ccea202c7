import AirlinkCore
import AirlinkProfiles
import Testing

/// A world the transport contract runs in: a fresh transport, the two reference peripherals on its air, and the verbs
/// that act from the peripherals' side. To check a transport of your own, conform a world to this protocol and run
/// every entry of ``TransportContract/checks`` in it from a Swift Testing test (`MyContractWorld` being yours, the
/// doc samples' check does not compile this one: it is marked `ignore`):
///
/// ```swift ignore
/// @Test(arguments: TransportContract.checks)
/// func myTransportKeepsTheContract(_ check: TransportContract.Check) async throws {
///     try await check.run(in: MyContractWorld())
/// }
/// ```
///
/// What a conforming world must do:
///
/// - ``makeTransport()`` gives a transport on a world back in its initial state (the values below, no link, no
///   bond): the checks do not clean up after themselves.
/// - The two peripherals of ``ContractPeripherals`` are on its air, advertising every 100 ms, with exactly the
///   handles and values listed below. A transport that talks to real devices serves them from a device you
///   program as the specs say (Airlink's own tests use the virtual radio, a fake BlueZ exported from the specs, and
///   the real Linux stack with `airlink controller` as its controller).
/// - Each peripheral verb acts before it returns, or at least before the transport can observe the next event.
/// - ``within(_:_:)`` and ``now()`` use the clock the transport runs on (virtual in a simulation, real otherwise),
///   and ``within(_:_:)`` cancels the work when the time is up: a check never waits longer than its own timeouts.
///
/// Airlink's worlds: `VirtualRadioContractWorld` and `ScriptedContractWorld` (inside a simulation,
/// ``SimulatedContractWorld``), `BlueZContractWorld` on the fake BlueZ and the real stack's world
/// (Tests/AirlinkBlueZTests).
///
/// The reference peripherals, with the handles every world must give them (the layout of a GATT
/// server: service declaration, then per characteristic its declaration, value, CCCD, descriptors):
///
/// - thermostat `C0:FF:EE:00:00:01`:
///   - service …0066 0x000A–0x0010: temperature …0067 decl 0x000B value 0x000C (read, write, notify),
///     CCCD 0x000D, user description 0x000E; unit …0068 decl 0x000F value 0x0010 (read, write, write
///     without response).
///   - service …0070 0x0011–0x0014: battery level …0069 decl 0x0012 value 0x0013 (read, notify), CCCD
///     0x0014.
/// - battery `F4:77:E2:00:00:02/random`:
///   - service 180F 0x000A–0x000D: 2A19 decl 0x000B value 0x000C (read, notify), CCCD 0x000D.
///   - service 180A 0x000E–0x0012: 2A29 value 0x0010 "Airlink", 2A24 value 0x0012 "B-1".
///
/// Values at the start: temperature 21.50 °C (sint16 0.01 °C little-endian, 66 08), unit 00
/// (Celsius), thermostat battery 87 (0x57), battery level 87, manufacturer data 0xFFFF → A1 B2
/// (thermostat), service data 180F → 57 (battery).
public protocol TransportContractWorld: Sendable {
    /// A new transport on a world back in its initial state.
    func makeTransport() async throws -> any Transport
    /// Runs a check on a new transport: directly on a real bus, inside the simulation on the radio.
    func run(_ check: @escaping @Sendable (any Transport) async throws -> Void) async throws
    /// The thermostat's identity.
    var thermostat: DeviceID { get }
    /// The battery peripheral's identity.
    var battery: DeviceID { get }
    /// The peripheral sends `value` as a notification of the characteristic with this value handle.
    func peripheralNotifies(_ device: DeviceID, valueHandle: ATTHandle, value: [UInt8]) async throws
    /// The link drops from the peripheral's side (it went out of range).
    func peripheralDropsLink(_ device: DeviceID) async throws
    /// The peripheral answers the next read of the value handle with an ATT error.
    func peripheralFailsNextRead(_ device: DeviceID, valueHandle: ATTHandle, with error: ATTError) async throws
    /// The peripheral never answers the next read of the value handle (the request stays on air).
    func peripheralIgnoresNextRead(_ device: DeviceID, valueHandle: ATTHandle) async throws
    /// The thermostat's firmware is updated while connected: the same services and values at other handles
    /// (``ContractPeripherals/movedThermostat``), announced with Service Changed.
    func thermostatMovesItsDatabase() async throws
    /// Closes the transport as its owner does when it is done with it (`close()`, `shutdown()`).
    func close(_ transport: any Transport) async throws
    /// The time since the world began, on the clock its transport runs on (virtual or real).
    func now() -> Duration
    /// What `work` gives, or `nil` when `timeout` passes first on the world's clock (then `work` is
    /// cancelled).
    func within<Value: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async -> Value?) async -> Value?
}

extension TransportContractWorld {
    /// How long ``scanAndConnect(_:_:)`` gives the advertisement and the connection each: 5 s, enough for the
    /// virtual radio and the fake BlueZ; a world on the real stack (an emulated CPU, bluetoothd's discovery over the
    /// paced air) gives more.
    public var connectTimeout: Duration { .seconds(5) }

    /// Runs the check directly: the default for worlds on real buses.
    public func run(_ check: @escaping @Sendable (any Transport) async throws -> Void) async throws {
        try await check(try await makeTransport())
    }

    /// The first value `match` gives for an event of `stream`, within `timeout`, or `nil` (also when
    /// the stream ends first).
    public func first<Value: Sendable>(
        _ stream: TransportEvents, within timeout: Duration,
        where match: @escaping @Sendable (TransportEvent) -> Value?
    ) async -> Value? {
        await within(timeout) {
            for await event in stream {
                if let value = match(event) { return value }
            }
            return nil
        }
    }

    /// Whether `stream` ends within `timeout` (the events before its end are skipped).
    public func ends(_ stream: TransportEvents, within timeout: Duration) async -> Bool {
        await within(timeout) { () async -> Bool? in
            for await _ in stream {}
            return true
        } ?? false
    }

    /// The outcome of `work` and how long it took on the world's clock.
    public func timed<Value: Sendable>(_ work: () async throws -> Value) async -> (
        outcome: Result<Value, any Error>, took: Duration
    ) {
        let start = now()
        let outcome: Result<Value, any Error>
        do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
        return (outcome, now() - start)
    }

    /// Scans until the device advertises, stops the scan and connects.
    public func scanAndConnect(_ transport: any Transport, _ device: DeviceID) async throws -> LinkInfo {
        let events = transport.events()
        try await transport.startScan(ScanFilter())
        let seen = await first(events, within: connectTimeout) { event -> Bool? in
            if case .advertisement(let id, _) = event, id == device { return true }
            return nil
        }
        await transport.stopScan()
        #expect(seen == true, "\(device) did not advertise")
        return try await transport.connect(device, timeout: connectTimeout)
    }
}

/// The contract's reference handles (see ``TransportContractWorld``).
public enum ContractHandles {
    /// The thermostat's temperature value (read, write, notify).
    public static let temperature = ATTHandle(0x000C)
    /// The temperature's Client Characteristic Configuration descriptor.
    public static let temperatureCCCD = ATTHandle(0x000D)
    /// The temperature's Characteristic User Description descriptor ("Temperature").
    public static let temperatureDescription = ATTHandle(0x000E)
    /// The thermostat's unit value (read, write, write without response).
    public static let unit = ATTHandle(0x0010)
    /// The thermostat's battery level value (read, notify).
    public static let thermostatBattery = ATTHandle(0x0013)
    /// The battery peripheral's Battery Level value (read, notify).
    public static let batteryLevel = ATTHandle(0x000C)
}
