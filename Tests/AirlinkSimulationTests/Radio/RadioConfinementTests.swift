#if DEBUG
    import AirlinkCore
    import Foundation
    @testable import AirlinkSimulation
    import Testing

    /// The debug-build check behind the radio's `@unchecked Sendable` and `@exclusivity(unchecked)`: its models'
    /// state is touched only under the world's lock (``RadioLock/assertHeld(_:file:line:)``). Release builds
    /// check nothing, so the suite exists in debug builds only.
    @Suite struct RadioConfinementTests {
        @Test func touchingAPeripheralWithoutTheLockStopsTheProcess() async {
            // Given a peripheral on the air
            // When a child process reads its advertising state without the world's lock
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let sim = Simulation(seed: 1)
                let peripheral = try sim.add(Fixture.sensor())
                _ = peripheral.model.isAdvertising
            }

            // Then the child stops, naming what was touched and the lock it needs
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(
                message.contains(
                    "RadioPeripheral.isAdvertising touched without the radio's lock (nobody holds it): "
                        + "the virtual radio's state is used only under `world.lock.withLock`"))
        }

        @Test func touchingAPeripheralWhileAnotherThreadHoldsTheLockStopsTheProcess() async {
            // Given a peripheral whose world's lock another thread holds
            // When a child process drops its links from its own thread
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let sim = Simulation(seed: 1)
                let peripheral = try sim.add(Fixture.sensor())
                let lock = sim.world.lock
                let held = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    lock.withLock {
                        held.signal()
                        DispatchSemaphore(value: 0).wait()  // holds the lock until the process ends
                    }
                }
                held.wait()
                peripheral.model.dropLinks(reason: .remoteUserTerminated)
                exit(EXIT_SUCCESS)  // unchecked, it gets here: end before teardown waits for the held lock
            }

            // Then the child stops, saying another thread holds the lock
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(
                message.contains(
                    "RadioPeripheral.dropLinks(reason:) touched without the radio's lock (another thread holds it)"))
        }

        @Test func touchingACentralsStateWithoutTheLockStopsTheProcess() async {
            // Given a central adapter
            // When a child process checks its power state without the world's lock
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let sim = Simulation(seed: 1)
                try sim.radio.checkPowered("scan")
            }

            // Then the child stops, naming the central's member
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(
                message.contains("VirtualRadio.checkPowered(_:) touched without the radio's lock (nobody holds it)"))
        }

        @Test func touchingAConnectionAttemptWithoutTheLockStopsTheProcess() async {
            // Given an attempt to connect to a peripheral on the air
            // When a child process ends it without the world's lock
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let sim = Simulation(seed: 1)
                let peripheral = try sim.add(Fixture.sensor())
                let attempt = ConnectAttempt(central: sim.radio, peripheral: peripheral.model)
                attempt.abandon(with: AirlinkError(.cancelled, "given up"))
            }

            // Then the child stops, naming the attempt's member
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(
                message.contains("ConnectAttempt.abandon(with:) touched without the radio's lock (nobody holds it)"))
        }

        @Test func touchingAPeripheralUnderTheLockPassesAtAnyDepth() throws {
            // Given a peripheral on the air
            let sim = Simulation(seed: 1)
            let peripheral = try sim.add(Fixture.sensor())
            let lock = sim.world.lock

            // When its state is touched under the lock, inside and after a nested hold
            let advertising = lock.withLock {
                let inner = lock.withLock { peripheral.model.isAdvertising }
                return [inner, peripheral.model.isAdvertising]
            }

            // Then the checks pass (the process goes on) and the reads agree
            #expect(advertising == [true, true])
        }
    }
#endif
