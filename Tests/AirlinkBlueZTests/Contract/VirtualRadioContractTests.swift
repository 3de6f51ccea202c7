import AirlinkCore
import AirlinkSimulation
import AirlinkTransportContract
import Testing

/// The contract world on the virtual radio: a strict simulation with the two reference peripherals;
/// each check runs inside the simulation, in virtual time, and waits in virtual time.
struct VirtualRadioContractWorld: SimulatedContractWorld {
    let sim = Simulation(seed: 11, strict: true)
    var environment: AirlinkEnvironment { sim.environment }
    let thermostat = ContractPeripherals.thermostat.id
    let battery = ContractPeripherals.battery.id
    let peripherals: [DeviceID: SimulatedPeripheral]

    /// A world serving `specs`: the two reference peripherals, or what stands in for them (their replayed
    /// recordings), with their ids.
    init(specs: [PeripheralSpec] = [ContractPeripherals.thermostat, ContractPeripherals.battery]) throws {
        var peripherals: [DeviceID: SimulatedPeripheral] = [:]
        for spec in specs {
            peripherals[spec.id] = try sim.add(spec)
        }
        self.peripherals = peripherals
    }

    func makeTransport() async throws -> any Transport { sim.radio }

    func run(_ check: @escaping @Sendable (any Transport) async throws -> Void) async throws {
        let radio = sim.radio
        try await sim.run { try await check(radio) }
    }

    private func peripheral(_ device: DeviceID) throws -> SimulatedPeripheral {
        try #require(peripherals[device])
    }

    func peripheralNotifies(_ device: DeviceID, valueHandle: ATTHandle, value: [UInt8]) async throws {
        try peripheral(device).setValue(
            value, of: try ContractPeripherals.characteristic(device, valueHandle: valueHandle))
    }

    func peripheralDropsLink(_ device: DeviceID) async throws {
        try peripheral(device).dropLink(reason: .supervisionTimeout)
    }

    func peripheralFailsNextRead(_ device: DeviceID, valueHandle: ATTHandle, with error: ATTError) async throws {
        try peripheral(device).respond(
            to: .read(try ContractPeripherals.characteristic(device, valueHandle: valueHandle)), with: error)
    }

    func peripheralIgnoresNextRead(_ device: DeviceID, valueHandle: ATTHandle) async throws {
        try peripheral(device).neverRespond(
            to: .read(try ContractPeripherals.characteristic(device, valueHandle: valueHandle)))
    }

    func thermostatMovesItsDatabase() async throws {
        try peripheral(thermostat).updateFirmware(FirmwareUpdate(services: ContractPeripherals.movedThermostat))
    }

    func close(_ transport: any Transport) async throws { sim.radio.shutdown() }
}
