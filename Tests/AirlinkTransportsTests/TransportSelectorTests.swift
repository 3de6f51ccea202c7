import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import AirlinkTransports
import Synchronization
import Testing

@testable import AirlinkBlueZ

/// The selector opens what a specifier names and hands back everything a caller needs around the
/// transport (environment, runner, close), so that no caller downcasts to a concrete transport.
struct TransportSelectorTests {
    @Test func simReturnsWhatTheHookOpenedAndRunsJobsInVirtualTime() async throws {
        // Given a selector whose hook opens a simulation, as the CLI's does, and counts closes
        let closes = Counter()
        let simulation = Simulation(seed: 1, strict: true)
        let selector = TransportSelector(makeSimulated: { scenario throws(AirlinkError) in
            #expect(scenario == nil)
            let radio = simulation.radio
            return OpenedTransport(
                transport: radio, environment: simulation.environment, specifier: .simulation(scenario: nil),
                run: { job in try await simulation.run(job) },
                close: {
                    closes.increment()
                    radio.shutdown()
                })
        })

        // When sim is opened and a job sleeps ten minutes on the environment's clock
        let opened = try await selector.open("sim")
        let clock = opened.environment.clock
        let start = clock.now
        let slept = try await opened.run { () async throws -> Duration in
            try await clock.sleep(for: .seconds(600))
            return clock.now.offset - start.offset
        }

        // Then the job ran inside the simulation (ten virtual minutes, at once) and gave its value back
        #expect(slept == .seconds(600))
        #expect(opened.isSimulated)
        #expect(opened.specifier == .simulation(scenario: nil))

        // And closing ends the radio's event streams, once however often it is called
        let events = opened.transport.events()
        opened.close()
        opened.close()
        #expect(closes.value == 1)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    @Test func closeRunsOnceUnderConcurrentCalls() async {
        // Given an opened transport whose close counts its calls
        let closes = Counter()
        let simulation = Simulation(seed: 2, strict: true)
        let opened = OpenedTransport(
            transport: simulation.radio, environment: simulation.environment, specifier: .simulation(scenario: nil),
            close: { closes.increment() })

        // When fifty tasks close it at once
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 { group.addTask { opened.close() } }
        }

        // Then the transport was closed exactly once
        #expect(closes.value == 1)
    }

    @Test func theDefaultSelectorOpensTheBuiltInWorldOnSim() async throws {
        // Given a selector made with no arguments, as the DocC example makes it, when sim is opened
        let opened = try await TransportSelector().open("sim")
        defer { opened.close() }

        // Then it is the virtual radio holding the built-in world: the thermostat, the battery and the SensorTag
        // answer a connection and their services, in virtual time
        let transport = opened.transport
        let services = try await opened.run { () async throws -> [[BluetoothUUID]] in
            var found: [[BluetoothUUID]] = []
            for device in SimulatedWorld.builtIn.peripherals.map(\.id) {
                _ = try await transport.connect(device, timeout: .seconds(5))
                found.append(try await transport.discoverServices(device, uuids: nil).map(\.uuid))
            }
            return found
        }
        #expect(opened.isSimulated)
        #expect(opened.specifier == .simulation(scenario: nil))
        #expect(services.count == 3)
        #expect(services[0].contains(.thermostatTemperatureService))
        #expect(services[1].contains(.battery))
    }

    @Test func simWithARecordingOpensTheRecordedDevice() async throws {
        // Given the recording of a thermostat shipped in Simulations/devices, when sim:PATH is opened
        let path = Self.repository + "/Simulations/devices/thermostat.yaml"
        let opened = try await TransportSelector().open("sim:" + path)
        defer { opened.close() }

        // Then the recorded device is on the air and answers with its recorded services
        let transport = opened.transport
        let services = try await opened.run { () async throws -> [BluetoothUUID] in
            _ = try await transport.connect("C0:FF:EE:00:00:01", timeout: .seconds(5))
            return try await transport.discoverServices("C0:FF:EE:00:00:01", uuids: nil).map(\.uuid)
        }
        #expect(opened.specifier == .simulation(scenario: path))
        #expect(services.contains(.thermostatTemperatureService))
        #expect(try TransportSelector.simulatedWorld(for: path).map(\.id) == ["C0:FF:EE:00:00:01"])
    }

    @Test func simWithAScenarioFileSaysHowToRunIt() async {
        // Given a scenario file (not a recording), when it is opened as sim:PATH
        let path = Self.repository + "/Simulations/linear-link-loss.yaml"
        let error = await #expect(throws: AirlinkError.self) { _ = try await TransportSelector().open("sim:" + path) }

        // Then the error says what the file is and how to run it
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("Scenario.load(path:)") == true)
    }

    @Test func theDefaultSelectorNoLongerSaysTheVirtualRadioIsMissing() async throws {
        // Given the default selector, when sim is opened, then nothing says a hook is missing (it opens)
        let opened = try await TransportSelector().open(.simulation(scenario: nil))
        opened.close()

        // And only a selector whose virtual radio was turned off refuses sim, saying how to turn it on
        var off = TransportSelector()
        off.makeSimulated = nil
        let error = await #expect(throws: AirlinkError.self) { _ = try await off.open("sim") }
        #expect(error?.code == .transportUnavailable)
        #expect(error?.message.contains("TransportSelector.simulation()") == true)
    }

    @Test func theSimulationHookTakesTheSeedAndTheLogLevel() async throws {
        // Given two selectors opening sim with seed 7 at level info
        let opened = try await TransportSelector(makeSimulated: TransportSelector.simulation(seed: 7, logLevel: .info))
            .open("sim")
        defer { opened.close() }

        // Then the simulation's random source and logger are the ones asked for
        #expect(opened.environment.logger.logLevel == .info)
        let again = try await TransportSelector(makeSimulated: TransportSelector.simulation(seed: 7)).open("sim")
        defer { again.close() }
        #expect(opened.environment.random.next() == again.environment.random.next())
        #expect(again.environment.logger.logLevel == .warning)
    }

    /// The repository's root, for its shipped files.
    static let repository: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()

    @Test func simUsesTheHookWithTheScenario() async throws {
        // Given a selector whose hook records the scenario it was given
        let selector = TransportSelector(makeSimulated: { (scenario) throws(AirlinkError) -> OpenedTransport in
            throw AirlinkError(.invalidSpecification, "hook saw \(scenario ?? "none")")
        })

        // When sim:PATH is asked for, then the hook receives the path
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await selector.open("sim:a.yaml")
        }
        #expect(error?.message == "hook saw a.yaml")
    }

    @Test(arguments: ["usb:0", "bluez:usb0", "", "sim:"])
    func aBadSpecifierOpensNothing(text: String) async {
        // Given a selector whose hook counts the simulations it opens
        let opens = Counter()
        let selector = TransportSelector(makeSimulated: { _ throws(AirlinkError) -> OpenedTransport in
            opens.increment()
            throw AirlinkError(.internalError, "the hook must not run for a bad specifier")
        })

        // When a string that names no transport is opened
        let error = await #expect(throws: AirlinkError.self) { _ = try await selector.open(text) }

        // Then it fails as invalid input, naming the accepted forms, and opens nothing
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("bluez:hci0") == true)
        #expect(opens.value == 0)
    }

    @Test func bluezWithoutABusSaysHowToFixIt() async {
        // Given a BlueZ configuration on a bus nobody serves
        let selector = TransportSelector(bluez: .init(busAddress: "unix:path=/nonexistent/airlink-selector-bus"))

        // When bluez:hci0 is asked for, then the error says the bus is unreachable
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await selector.open("bluez:hci0")
        }
        #expect(error?.code == .transportUnavailable)
        #expect(error?.message.contains("dbus") == true)
    }
}

/// The selector on the fake BlueZ (Tests/Fixtures/bluez).
@Suite(.fakeBlueZ(), .serialized)
struct TransportSelectorOnBlueZTests {
    @Test func bluezOpensALiveTransportThatRunsJobsOnTheDBusThreadAndClosesOnce() async throws {
        // Given a selector on the fake BlueZ's bus, whose sim hook must not run
        let fake = try await FakeBlueZ.fresh()
        let selector = TransportSelector(
            makeSimulated: { _ throws(AirlinkError) -> OpenedTransport in
                throw AirlinkError(.internalError, "bluez must not open the virtual radio")
            }, bluez: fake.configuration())

        // When bluez:hci0 is opened and a job reads the adapter's state through it
        let opened = try await selector.open("bluez:hci0")
        let transport = opened.transport
        let state = try await opened.run { await transport.adapterState }
        let bluez = try #require(transport as? BlueZTransport)
        let onDBusThread = try await opened.run {
            bluez.connection.loop.isJobThread
        }

        // Then the job ran on the live adapter, on the D-Bus thread (no hop for its replies), the layers'
        // environment prefers that thread too, and the transport is not the simulated one
        #expect(state == .poweredOn)
        #expect(onDBusThread)
        #expect(opened.environment.executor === bluez.taskExecutor)
        #expect(!opened.isSimulated)
        #expect(opened.specifier == .bluez(adapter: "hci0"))

        // And closing ends its event streams and fails later requests; a second close does nothing
        let events = transport.events()
        opened.close()
        opened.close()
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == nil)
        let error = await #expect(throws: AirlinkError.self) { try await transport.startScan(ScanFilter()) }
        #expect(error != nil)
    }
}

/// A count that test closures may bump from any task.
private final class Counter: Sendable {
    private let count = Mutex(0)

    func increment() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
