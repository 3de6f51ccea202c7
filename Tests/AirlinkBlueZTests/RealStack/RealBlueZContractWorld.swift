import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkHCI
import AirlinkSimulation
import AirlinkTransportContract
import Foundation
import Synchronization
import Testing

@testable import AirlinkBlueZ

/// The contract world on the real Linux stack: the real kernel and the real bluetoothd, with the two reference
/// peripherals served by Airlink's controller through `/dev/vhci` in this process. It runs inside the real-stack
/// virtual machine (`Scripts/realstack/run`, Docs/RealStack.md), which sets `AIRLINK_REAL_BLUEZ=1`.
///
/// Each world is a new adapter: a new virtual controller with an address of its own, so that bluetoothd's
/// storage (its GATT cache, its bonds, kept per adapter address) starts empty, as a fake BlueZ's reset does.
/// Peripheral verbs act on the served simulation between two of its paced runs (``HCIControllerServer/perform(_:)``).
struct RealBlueZContractWorld: TransportContractWorld {
    let server: HCIControllerServer
    let serving: Task<Void, any Error>
    let adapter: String
    let thermostat = ContractPeripherals.thermostat.id
    let battery = ContractPeripherals.battery.id
    /// When the world began, on the real clock: bluetoothd and the kernel run in real time.
    let origin = ContinuousClock.now

    /// Under TCG, with bluetoothd discovering over the paced air, a connection took 5 s and more on a loaded
    /// machine: the real stack's checks give 30 s.
    var connectTimeout: Duration { .seconds(30) }

    /// Whether this process runs on the real stack (inside the real-stack virtual machine).
    static let isEnabled = ProcessInfo.processInfo.environment["AIRLINK_REAL_BLUEZ"] == "1"

    /// The addresses of the worlds of this process, one each.
    private static let worlds = Atomic<UInt64>(0)

    /// A new controller serving `specs` (the reference peripherals), its adapter known to bluetoothd and powered.
    static func fresh(
        serving specs: [PeripheralSpec] = [ContractPeripherals.thermostat, ContractPeripherals.battery]
    ) async throws -> RealBlueZContractWorld {
        let simulation = Simulation(seed: 11, strict: false)
        for spec in specs { _ = try simulation.add(spec) }
        let number = worlds.add(1, ordering: .relaxed).newValue
        let log = RealStackArtefacts.file("controller-\(number).log")
        let server = try HCIControllerServer(
            simulation: simulation, endpoint: .vhci(path: "/dev/vhci", index: nil),
            btsnoop: RealStackArtefacts.path("controller-\(number).btsnoop"),
            address: BDAddress(value: 0xA1_4C_00_00_10_00 + number), output: { log.write($0) })
        guard case .vhci(_, let index?) = server.endpoint else {
            throw AirlinkError(.invalidArgument, "the controller has no kernel index: \(server.endpoint)")
        }
        let serving = Task { try await server.run() }
        let adapter = "hci\(index)"
        try await RealStackAdapter.powerOn(adapter)
        return RealBlueZContractWorld(server: server, serving: serving, adapter: adapter)
    }

    func makeTransport() async throws -> any Transport {
        try await BlueZTransport.open(
            BlueZTransport.Configuration(
                adapter: adapter, busAddress: nil, operationTimeout: .seconds(10), servicesGrace: .seconds(2),
                servicesQuietPeriod: .milliseconds(300), servicesSettleLimit: .seconds(10)))
    }

    /// Runs the check on a new transport, then stops the controller: its adapter goes away with it.
    func run(_ check: @escaping @Sendable (any Transport) async throws -> Void) async throws {
        do {
            try await check(try await makeTransport())
        } catch {
            await stop()
            throw error
        }
        await stop()
    }

    /// Stops the controller: its adapter goes away, and with it every link.
    func stop() async {
        server.stop()
        _ = await serving.result
    }

    private func peripheral(_ device: DeviceID, _ work: @escaping @Sendable (SimulatedPeripheral) throws -> Void)
        async throws
    {
        try await server.perform { simulation in
            guard let peripheral = simulation.peripheral(device) else {
                throw AirlinkError(.deviceNotFound, "the served world has no \(device)")
            }
            try work(peripheral)
        }
    }

    func peripheralNotifies(_ device: DeviceID, valueHandle: ATTHandle, value: [UInt8]) async throws {
        let characteristic = try ContractPeripherals.characteristic(device, valueHandle: valueHandle)
        try await peripheral(device) { try $0.setValue(value, of: characteristic) }
    }

    /// The peripheral notifies `count` values of the characteristic at once, the i-th being `i` as a little-endian
    /// UInt16 (so that order and gaps show).
    func peripheralBursts(_ device: DeviceID, valueHandle: ATTHandle, count: Int) async throws {
        let characteristic = try ContractPeripherals.characteristic(device, valueHandle: valueHandle)
        try await peripheral(device) {
            try $0.burstNotifications(of: characteristic, count: count) { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        }
    }

    func peripheralDropsLink(_ device: DeviceID) async throws {
        try await peripheral(device) { $0.dropLink(reason: .supervisionTimeout) }
    }

    func peripheralFailsNextRead(_ device: DeviceID, valueHandle: ATTHandle, with error: ATTError) async throws {
        let characteristic = try ContractPeripherals.characteristic(device, valueHandle: valueHandle)
        try await peripheral(device) { $0.respond(to: .read(characteristic), with: error) }
    }

    func peripheralIgnoresNextRead(_ device: DeviceID, valueHandle: ATTHandle) async throws {
        let characteristic = try ContractPeripherals.characteristic(device, valueHandle: valueHandle)
        try await peripheral(device) { $0.neverRespond(to: .read(characteristic)) }
    }

    func thermostatMovesItsDatabase() async throws {
        try await peripheral(thermostat) {
            $0.updateFirmware(FirmwareUpdate(services: ContractPeripherals.movedThermostat))
        }
    }

    func close(_ transport: any Transport) async throws { try #require(transport as? BlueZTransport).close() }

    func now() -> Duration { origin.duration(to: .now) }

    func within<Value: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async -> Value?) async -> Value? {
        await valueWithin(timeout, work)
    }
}
