import AirlinkCore
import AirlinkTestSupport
import Synchronization
import Testing

@testable import AirlinkSimulation

@Suite struct SimulationKernelTests {
    @Test func minutesOfBackOffPassInVirtualTime() async throws {
        // Given a simulation
        let sim = Simulation(seed: 1, strict: true)

        // When a task sleeps for ten minutes
        let woke = try await sim.run {
            try await sim.clock.sleep(for: .seconds(600))
            return sim.clock.now
        }

        // Then virtual time moved by exactly ten minutes
        #expect(woke == AirlinkInstant(offset: .seconds(600)))
        #expect(sim.now.offset == .seconds(600))
    }

    @Test func timersDueAtTheSameInstantFireInTheOrderTheyWereArmed() async throws {
        // Given three tasks sleeping until the same instant, armed in a known order
        let sim = Simulation(seed: 1, strict: true)
        let order = Recorder<Int>()
        for index in 0..<3 {
            sim.spawn {
                try? await sim.clock.sleep(until: AirlinkInstant(offset: .seconds(1)))
                order.append(index)
            }
        }

        // When the simulation runs past that instant
        try await sim.run(for: .seconds(2))

        // Then they woke in arming order, and time stands at the end of the span
        #expect(order.values == [0, 1, 2])
        #expect(sim.now.offset == .seconds(2))
    }

    @Test func aRunBoundedByVirtualTimeStopsAtTheBound() async throws {
        // Given a task that would sleep for an hour
        let sim = Simulation(seed: 1, strict: true)
        let finished = Recorder<Bool>()
        sim.spawn {
            try? await sim.clock.sleep(for: .seconds(3600))
            finished.append(true)
        }

        // When the simulation runs for ten minutes
        try await sim.run(for: .seconds(600))

        // Then the task is still asleep, and it wakes when the rest of the hour has run
        #expect(finished.values.isEmpty)
        try await sim.run(for: .seconds(3000))
        #expect(finished.values == [true])
    }

    @Test func workAwaitingSomethingThatNeverComesIsReportedAsAStall() async throws {
        // Given work that waits on a continuation no one resumes
        let sim = Simulation(seed: 3, strict: true)

        // When it is run
        await #expect {
            try await sim.run {
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            }
        } throws: { error in
            // Then the run reports a stall with the seed, instead of hanging
            let error = error as? AirlinkError
            return error?.code == .simulationStalled && error?.message.contains("seed 3") == true
        }
    }

    @Test func aRunLongerThanItsLimitIsATimeout() async throws {
        let sim = Simulation(seed: 1, strict: true)
        await #expect {
            try await sim.run(limit: .seconds(10)) { try await sim.clock.sleep(for: .seconds(11)) }
        } throws: { error in
            (error as? AirlinkError)?.code == .timeout
        }
        #expect(sim.now.offset == .seconds(10))
    }

    @Test func cancellingASleepingTaskWakesItWithCancellationError() async throws {
        // Given a task asleep for a minute
        let sim = Simulation(seed: 1, strict: true)
        let sleeper = sim.spawn { () -> Bool in
            do {
                try await sim.clock.sleep(for: .seconds(60))
                return false
            } catch { return error is CancellationError }
        }
        try await sim.run(for: .seconds(1))

        // When it is cancelled
        let cancelled = try await sim.run {
            sleeper.cancel()
            return await sleeper.value
        }

        // Then it woke at once with CancellationError, without waiting out the minute
        #expect(cancelled)
        #expect(sim.now.offset == .seconds(1))
    }

    @Test func defaultActorsCalledFromSimulatedTasksStayOnTheSimulation() async throws {
        actor Counter {
            var value = 0
            func bump() -> Int {
                value += 1
                return value
            }
        }
        let sim = Simulation(seed: 1, strict: true)
        let counter = Counter()
        let result = try await sim.run {
            var last = 0
            for _ in 0..<100 {
                last = await counter.bump()
                try await sim.clock.sleep(for: .milliseconds(10))
            }
            return last
        }
        #expect(result == 100)
        #expect(sim.escapedWork.count == 0)
    }

    @Test func aPlainTaskStartedBySimulatedCodeIsCaughtInStrictMode() async throws {
        // Given a strict simulation whose code starts a plain Task, escaping the executor
        let sim = Simulation(seed: 1, strict: true)

        // When it runs
        await #expect {
            try await sim.run {
                // Not awaited: the test is about the escape, not about when the pool runs it.
                _ = Task { 1 + 1 }
            }
        } throws: { error in
            // Then the run fails with escapedWork, saying what escaped and how to fix it
            let error = error as? AirlinkError
            return error?.code == .escapedWork && error?.message.contains("environment.spawn") == true
        }
        #expect(sim.escapedWork.count >= 1)
    }

    @Test func aDetachedTaskIsCountedEvenWhenNotStrict() async throws {
        let sim = Simulation(seed: 1, strict: false)
        try await sim.run {
            _ = Task.detached { 2 }
        }
        #expect(sim.escapedWork.count >= 1)
    }

    @Test func aRealSleepIsCaughtInStrictMode() async throws {
        let sim = Simulation(seed: 1, strict: true)
        await #expect {
            // A real sleep is the point: the kernel must catch it as work escaping the simulation.
            try await sim.run { try await Task.sleep(for: .milliseconds(1)) }
        } throws: { error in
            (error as? AirlinkError)?.code == .escapedWork
        }
    }

    @Test func workStartedThroughTheEnvironmentDoesNotEscape() async throws {
        let sim = Simulation(seed: 1, strict: true)
        let value = try await sim.run {
            let child = sim.environment.spawn { () -> Int in
                try? await sim.clock.sleep(for: .seconds(1))
                return 41
            }
            return await child.value + 1
        }
        #expect(value == 42)
        #expect(sim.escapedWork.count == 0)
    }

    @Test func runningFromInsideTheSimulationIsRefused() async throws {
        let sim = Simulation(seed: 1, strict: true)
        let refused = try await sim.run { () -> Bool in
            do {
                try await sim.run(for: .seconds(1))
                return false
            } catch { return (error as? AirlinkError)?.code == .invalidArgument }
        }
        #expect(refused)
    }
}
