import Testing

@testable import AirlinkBlueZ

/// When the D-Bus loop must be woken for a call's deadline, without a bus.
struct DBusWakePlanTests {
    let now = ContinuousClock.now

    @Test func aCallWakesAnIdleLoopOnce() {
        // Given a loop asleep with nothing due
        let plan = DBusWakePlan()
        #expect(plan.plan(now: now, nearest: { nil }) == nil)

        // When a call due in 2 s is sent, then the loop is woken and plans for it
        let deadline = now.advanced(by: .seconds(2))
        #expect(plan.needsWake(for: deadline))
        #expect(plan.plan(now: now, nearest: { deadline }) == deadline)

        // And later calls, due later, do not wake it
        #expect(!plan.needsWake(for: now.advanced(by: .seconds(3))))
    }

    @Test func anEarlierDeadlineWakesTheLoop() {
        // Given a loop planning to wake in 30 s
        let plan = DBusWakePlan()
        #expect(plan.plan(now: now, nearest: { now.advanced(by: .seconds(30)) }) == now.advanced(by: .seconds(30)))

        // When a call due in 1 s is sent, then the loop is woken
        #expect(plan.needsWake(for: now.advanced(by: .seconds(1))))
    }

    @Test func aPlannedWakeAheadIsKeptWhenItsCallIsAnswered() {
        // Given a loop planning for a call due in 2 s, which is answered
        let plan = DBusWakePlan()
        _ = plan.plan(now: now, nearest: { now.advanced(by: .seconds(2)) })

        // When it plans again with nothing due, then it still wakes at 2 s (one spurious wake-up)
        #expect(plan.plan(now: now.advanced(by: .seconds(1)), nearest: { nil }) == now.advanced(by: .seconds(2)))

        // And once that instant has passed it sleeps with nothing planned
        #expect(plan.plan(now: now.advanced(by: .seconds(3)), nearest: { nil }) == nil)
    }
}
