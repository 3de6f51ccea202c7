import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import AirlinkTransportContract
import Testing

/// The contract world on the scripted transport the layers' tests use (Sources/AirlinkTestSupport):
/// the two reference peripherals as scripted devices with the specs' GATT databases and
/// advertisements, advertising every 100 ms; each check runs inside a strict simulation and waits in
/// virtual time. Peripheral verbs are the scripted transport's fixture verbs.
struct ScriptedContractWorld: SimulatedContractWorld {
    let sim = Simulation(seed: 11, strict: true)
    let scripted: ScriptedTransport
    let thermostat = ContractPeripherals.thermostat.id
    let battery = ContractPeripherals.battery.id
    var environment: AirlinkEnvironment { sim.environment }

    init() throws {
        let peripherals = [ContractPeripherals.thermostat, ContractPeripherals.battery].map { spec in
            TestPeripheral(
                id: spec.id, advertisement: spec.advertising?.advertisement ?? Advertisement(),
                gatt: spec.gattDefinition, rssi: ContractPeripherals.rssi[spec.id] ?? -60, mtu: spec.preferredMTU)
        }
        scripted = try ScriptedTransport(environment: sim.environment, peripherals: peripherals)
    }

    func makeTransport() async throws -> any Transport { scripted }

    func run(_ check: @escaping @Sendable (any Transport) async throws -> Void) async throws {
        let (scripted, devices) = (scripted, [thermostat, battery])
        try await sim.run {
            for device in devices { await scripted.startAdvertising(device, every: .milliseconds(100)) }
            try await check(scripted)
        }
    }

    func peripheralNotifies(_ device: DeviceID, valueHandle: ATTHandle, value: [UInt8]) async throws {
        // Sent only while the central has notifications on, as a GATT server does
        await scripted.notify(device, try ContractPeripherals.characteristic(device, valueHandle: valueHandle), value)
    }

    func peripheralDropsLink(_ device: DeviceID) async throws {
        await scripted.dropLink(device, reason: .supervisionTimeout)
    }

    func peripheralFailsNextRead(_ device: DeviceID, valueHandle: ATTHandle, with error: ATTError) async throws {
        // The scripted transport fails the device's next request, whichever it is: the check reads next
        await scripted.failNextRequest(
            device,
            with: AirlinkError(
                .attribute, "read of \(valueHandle) refused: \(error)", cause: .att(error, handle: valueHandle)))
    }

    func peripheralIgnoresNextRead(_ device: DeviceID, valueHandle: ATTHandle) async throws {
        // The scripted transport ignores the device's next request, whichever it is: the check reads next
        await scripted.ignoreNextRequests(device)
    }

    func thermostatMovesItsDatabase() async throws {
        var moved = ContractPeripherals.thermostat
        moved.services = ContractPeripherals.movedThermostat
        try await scripted.replaceDatabase(thermostat, with: moved.gattDefinition)
    }

    func close(_ transport: any Transport) async throws { await scripted.shutdown() }
}

/// The transport contract on the scripted transport: the same checks as on the virtual radio and
/// BlueZ, so that the transport the layers' tests stand on is held to what the real two do.
@Suite struct ScriptedRequestQueueTests {
    @Test func aRequestCancelledWhileWaitingForItsTurnFailsAtOnce() async throws {
        // Given a connected thermostat that ignores its next request, a read it never answers, and a
        // second read waiting behind it for the link's turn
        let world = try ScriptedContractWorld()
        let (scripted, thermostat, environment) = (world.scripted, world.thermostat, world.environment)
        try await world.run { transport in
            _ = try await world.scanAndConnect(transport, thermostat)
            await scripted.ignoreNextRequests(thermostat)
            let stalled = Task(executorPreference: environment.executor) {
                try await transport.read(thermostat, handle: ContractHandles.temperature)
            }
            let queued = Task(executorPreference: environment.executor) {
                try await transport.read(thermostat, handle: ContractHandles.unit)
            }
            // Virtual time: every ready job runs before the clock moves, so both reads are issued here
            try await environment.clock.sleep(for: .milliseconds(1))
            #expect(await scripted.requests.suffix(2) == ["read 0x000C", "read 0x0010"])

            // When the queued read's task is cancelled
            let cancelledAt = world.now()
            queued.cancel()

            // Then it fails with cancelled at once, not when the stalled read gives the link up
            let queuedResult = await queued.result
            #expect(code(queuedResult) == .cancelled, "\(queuedResult)")
            #expect(world.now() - cancelledAt < .seconds(1))
            // And the stalled read still fails with timeout at its own deadline
            #expect(code(await stalled.result) == .timeout)
            await transport.disconnect(thermostat)
        }
    }
}
