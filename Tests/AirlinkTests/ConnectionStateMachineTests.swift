import Airlink
import AirlinkCore
import Testing

/// The connection's decisions, tested without any radio: time is advanced by hand.
@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine

    @Test func linearStrategyWaitsExactlyTwoSecondsBeforeTheFirstAttempt() {
        // Given a connected machine with the original example's linear strategy
        var harness = MachineHarness(strategy: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        harness.connectNow()

        // When the link drops
        let actions = harness.send(.linkDown(.supervisionTimeout))

        // Then the loss is reported and an attempt announced, with 3 remaining
        #expect(harness.eventNames == ["connected", "lost", "willReconnect(3)"])
        #expect(actions.contains { if case .linkUnusable(_, keepSubscriptions: true) = $0 { true } else { false } })
        // And 1999 ms later nothing has happened yet
        #expect(harness.advance(by: .milliseconds(1999)).isEmpty)
        #expect(harness.pendingAttempt == nil)
        // And 1 ms more starts the attempt, with the strategy's 3 s timeout
        let next = harness.advance(by: .milliseconds(1))
        guard case .startAttempt(_, let timeout) = next.first else {
            Issue.record("expected an attempt, got \(next)")
            return
        }
        #expect(timeout == .seconds(3))
        #expect(harness.machine.state == .reconnecting(attempt: 1, remainingAttempts: 3, phase: .connecting))
    }

    @Test func linearStrategyGivesUpAfterItsAttempts() {
        // Given a linear strategy of 3 attempts, 2 s apart, 3 s each, and a device that never answers
        var harness = MachineHarness(strategy: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        harness.connectNow()

        // When the link drops and 20 s pass
        harness.send(.linkDown(.supervisionTimeout))
        harness.advance(by: .seconds(20))

        // Then (after the app's own attempt at 0) attempts started at 2 s, 7 s and 12 s, and the
        // strategy gave up at 15 s
        #expect(harness.attemptTimes == [.zero, .seconds(2), .seconds(7), .seconds(12)])
        #expect(
            harness.eventNames == [
                "connected", "lost", "willReconnect(3)", "willReconnect(2)", "willReconnect(1)", "gaveUp",
            ])
        let gaveUp = harness.log.first { if case .emit(.gaveUp) = $0.action { true } else { false } }
        #expect(gaveUp?.time == .seconds(15))
        #expect(harness.machine.state == .disconnected)
        #expect(!harness.hasArmedTimer)
    }

    @Test func noStrategyReportsTheLossAtOnceAndNothingMore() {
        // Given a connected machine without reconnection
        var harness = MachineHarness(strategy: .none)
        harness.connectNow()

        // When the link drops and a minute passes
        harness.send(.linkDown(.remoteUserTerminated))
        harness.advance(by: .seconds(60))

        // Then only the loss was reported, and the machine is disconnected with nothing armed
        #expect(harness.eventNames == ["connected", "lost"])
        #expect(harness.machine.state == .disconnected)
        #expect(!harness.hasArmedTimer && harness.pendingAttempt == nil)
    }

    @Test func aSuccessfulReconnectionStartsTheCountAfresh() {
        // Given a linear strategy and a link that dropped once and came back on the second attempt
        var harness = MachineHarness(strategy: .linear(wait: .seconds(1), attempts: 3, timeout: .seconds(2)))
        harness.connectNow()
        harness.send(.linkDown(.supervisionTimeout))
        harness.advance(by: .seconds(1))
        harness.failAttempt()
        harness.advance(by: .seconds(1))
        harness.succeedAttempt()

        // When the link drops again
        harness.send(.linkDown(.supervisionTimeout))

        // Then three attempts remain again
        #expect(
            harness.eventNames == [
                "connected", "lost", "willReconnect(3)", "willReconnect(2)", "reconnected", "lost", "willReconnect(3)",
            ])
    }

    @Test func disconnectDuringBackOffCancelsTheTimerAndTerminates() {
        // Given a machine waiting out a back-off
        var harness = MachineHarness(strategy: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        harness.connectNow()
        harness.send(.linkDown(.supervisionTimeout))

        // When the app disconnects, then time passes the back-off
        let actions = harness.send(.disconnectRequested)
        harness.advance(by: .seconds(10))

        // Then the timer was cancelled, the app told once, and no attempt was made
        #expect(actions.contains { if case .cancelTimer = $0 { true } else { false } })
        #expect(actions.filter { $0 == .completeDisconnect }.count == 1)
        #expect(harness.eventNames.last == "terminated")
        #expect(harness.attemptTimes == [.zero])
        #expect(harness.machine.state == .disconnected)
    }

    @Test func aLateDisconnectionOfThePreviousLinkIsNotTakenForALoss() {
        // Given an app that disconnected and connected again before the old link's event arrived
        var harness = MachineHarness(strategy: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        harness.connectNow()
        harness.send(.disconnectRequested)
        harness.send(.disconnectCompleted)
        harness.send(.connectRequested(timeout: .seconds(5)))
        let attempt = harness.pendingAttempt!
        harness.send(.attemptSucceeded(attempt, LinkInfo(mtu: 23)))

        // When the old link's `.disconnected` arrives, before the new link's `.connected`
        let stale = harness.send(.linkDown(.localHostTerminated))
        harness.send(.linkUp)

        // Then nothing happens; a later drop of the new link is a loss
        #expect(stale.isEmpty)
        #expect(harness.machine.state.isConnected)
        harness.send(.linkDown(.supervisionTimeout))
        #expect(harness.eventNames.suffix(2) == ["lost", "willReconnect(3)"])
    }

    @Test func anAbandonedAttemptThatLinksAnywayIsClosed() {
        // Given a connection attempt the app abandoned by disconnecting
        var harness = MachineHarness(strategy: .none)
        harness.send(.connectRequested(timeout: .seconds(5)))
        let attempt = harness.pendingAttempt!
        let abandon = harness.send(.disconnectRequested)

        // When the transport links after all
        let late = harness.send(.attemptSucceeded(attempt, LinkInfo(mtu: 23)))

        // Then the app's connect failed once with `cancelled`, and the unwanted link is closed
        let failures = abandon.compactMap { action -> AirlinkError? in
            if case .completeConnect(.failure(let error)) = action { return error }
            return nil
        }
        #expect(failures.map(\.code) == [.cancelled])
        #expect(late == [.closeLink])
        #expect(harness.machine.state == .disconnected)
    }

    @Test func aLinkThatDropsBeforeTheAttemptReturnsIsConnectedThenLost() {
        // Given an attempt whose link came up (`.connected` seen) and dropped before `connect` returned
        var harness = MachineHarness(strategy: .linear(wait: .seconds(2), attempts: 1, timeout: .seconds(3)))
        harness.send(.connectRequested(timeout: .seconds(5)))
        let attempt = harness.pendingAttempt!
        harness.send(.linkUp)
        harness.send(.linkDown(.supervisionTimeout))

        // When the attempt's success arrives
        harness.send(.attemptSucceeded(attempt, LinkInfo(mtu: 23)))

        // Then the app sees the connection, then its loss, and reconnection begins
        #expect(harness.eventNames == ["connected", "lost", "willReconnect(1)"])
    }

    @Test func connectingWhileTheAdapterIsOffFailsAtOnce() {
        // Given a machine whose adapter is off
        var harness = MachineHarness(strategy: .none)
        harness.send(.adapterChanged(poweredOn: false))

        // When the app connects
        let actions = harness.send(.connectRequested(timeout: .seconds(5)))

        // Then the connect fails with adapterPoweredOff, without any attempt
        #expect(harness.pendingAttempt == nil)
        let codes = actions.compactMap { action -> AirlinkError.Code? in
            if case .completeConnect(.failure(let error)) = action { return error.code }
            return nil
        }
        #expect(codes == [.adapterPoweredOff])
        #expect(harness.eventNames == ["failedToConnect"])
    }

    @Test func reconnectionPausesWhileTheAdapterIsOffAndResumesAtOnce() {
        // Given a machine backing off after a loss
        var harness = MachineHarness(strategy: .linear(wait: .seconds(2), attempts: 2, timeout: .seconds(3)))
        harness.connectNow()
        harness.send(.linkDown(.supervisionTimeout))

        // When the adapter goes off for a minute, then on
        harness.send(.adapterChanged(poweredOn: false))
        harness.advance(by: .seconds(60))
        #expect(harness.machine.state == .reconnecting(attempt: 1, remainingAttempts: 2, phase: .waitingForAdapter))
        harness.send(.adapterChanged(poweredOn: true))

        // Then no attempt ran while it was off, and one starts as soon as it is on, not counted twice
        #expect(harness.attemptTimes == [.zero, .seconds(60)])
        #expect(harness.eventNames == ["connected", "lost", "willReconnect(2)"])
    }

    @Test func anAdapterBlipDuringTheWaitDoesNotShortenIt() {
        // Given a machine whose link is lost at 5 s, with a linear 2 s wait
        var harness = MachineHarness(strategy: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        harness.connectNow()
        harness.advance(by: .seconds(5))
        harness.send(.linkDown(.supervisionTimeout))

        // When the adapter goes off at 5.5 s and on at 6 s
        harness.advance(by: .milliseconds(500))
        harness.send(.adapterChanged(poweredOn: false))
        harness.advance(by: .milliseconds(500))
        let powerOn = harness.send(.adapterChanged(poweredOn: true))

        // Then nothing starts at power-on; the attempt starts at 7 s, when the wait ends
        #expect(!powerOn.contains { if case .startAttempt = $0 { true } else { false } })
        #expect(harness.machine.state == .reconnecting(attempt: 1, remainingAttempts: 3, phase: .waiting))
        #expect(harness.advance(by: .milliseconds(999)).isEmpty)
        harness.advance(by: .milliseconds(1))
        #expect(harness.attemptTimes == [.zero, .seconds(7)])
    }

    @Test func aLinkLostToAPowerOffWaitsTheStrategysDelayAfterPowerOn() {
        // Given a connected machine with exponential back-off of 4 s (no jitter)
        var harness = MachineHarness(
            strategy: .exponential(
                initialDelay: .seconds(4), maximumDelay: .seconds(60), attempts: 3, timeout: .seconds(1),
                jitter: .none))
        harness.connectNow()
        harness.advance(by: .seconds(5))

        // When the adapter goes off at 5 s (losing the link) and on again at 6 s
        harness.send(.adapterChanged(poweredOn: false))
        harness.advance(by: .seconds(1))
        harness.send(.adapterChanged(poweredOn: true))
        harness.advance(by: .seconds(10))

        // Then the first attempt starts 4 s after the loss, at 9 s, not at power-on
        #expect(harness.attemptTimes.prefix(2) == [.zero, .seconds(9)])
    }

    @Test func aBlipNeitherUsesUpNorRestoresAttemptsAndKeepsTheBackOffGrowing() {
        // Given exponential back-off of 1 s, 2 s, 4 s (no jitter), 3 attempts of 1 s each, a device
        // that never answers, and a link lost at 0
        var harness = MachineHarness(
            strategy: .exponential(
                initialDelay: .seconds(1), maximumDelay: .seconds(60), attempts: 3, timeout: .seconds(1),
                jitter: .none))
        harness.connectNow()
        harness.send(.linkDown(.supervisionTimeout))

        // When the adapter blips during the second wait (attempt 1 ran 1–2 s; the wait is 2–4 s)
        harness.advance(by: .milliseconds(2500))
        harness.send(.adapterChanged(poweredOn: false))
        harness.advance(by: .milliseconds(100))
        harness.send(.adapterChanged(poweredOn: true))
        harness.advance(by: .seconds(30))

        // Then the attempts come at 1 s, 4 s and 9 s, as without the blip, and the strategy gives up
        // after its three
        #expect(harness.attemptTimes == [.zero, .seconds(1), .seconds(4), .seconds(9)])
        #expect(
            harness.eventNames == [
                "connected", "lost", "willReconnect(3)", "willReconnect(2)", "willReconnect(1)", "gaveUp",
            ])
    }

    @Test func disconnectingWhileTheAdapterIsOffCancelsTheRunningWait() {
        // Given a machine whose back-off wait runs while the adapter is off
        var harness = MachineHarness(strategy: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        harness.connectNow()
        harness.send(.linkDown(.supervisionTimeout))
        harness.send(.adapterChanged(poweredOn: false))

        // When the app disconnects, the adapter comes on, and time passes
        harness.send(.disconnectRequested)
        harness.send(.adapterChanged(poweredOn: true))
        harness.advance(by: .seconds(10))

        // Then no timer is left and no attempt was made
        #expect(!harness.hasArmedTimer)
        #expect(harness.attemptTimes == [.zero])
        #expect(harness.machine.state == .disconnected)
    }

    @Test func cancellingTheAppsConnectCancelsTheAttempt() {
        // Given an attempt under way
        var harness = MachineHarness(strategy: .none)
        harness.send(.connectRequested(timeout: .seconds(5)))

        // When the task awaiting connect is cancelled
        let actions = harness.send(.connectCancelled)

        // Then the attempt is cancelled and the app told once
        #expect(actions.contains { if case .cancelAttempt = $0 { true } else { false } })
        #expect(harness.eventNames == ["failedToConnect"])
        #expect(harness.machine.state == .disconnected)
    }

    @Test func aStrategyThatPlansANonPositiveTimeoutGivesUpWithInvalidArgument() {
        // Given a strategy of the user's that asks for a zero timeout
        struct Broken: ReconnectionStrategy {
            func nextAttempt(after history: ReconnectionHistory, random: any RandomSource) -> ReconnectionAttempt? {
                ReconnectionAttempt(trigger: .after(.seconds(1)), connectTimeout: .zero, remainingAttempts: nil)
            }
        }
        var harness = MachineHarness(strategy: Broken())
        harness.connectNow()

        // When the link drops
        let actions = harness.send(.linkDown(.supervisionTimeout))

        // Then the machine gives up with an error naming the strategy and the problem
        let error = actions.compactMap { action -> AirlinkError? in
            if case .emit(.gaveUp(let error)) = action { return error }
            return nil
        }.first
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("Broken") == true)
        #expect(error?.message.contains("timeout") == true)
    }

    @Test func theAdvertisementStrategyWatchesThenConnectsOrCountsAnEmptyWindowAsAFailure() {
        // Given a strategy waiting up to 10 s for an advertisement, 2 attempts
        var harness = MachineHarness(
            strategy: .whenAdvertising(attempts: 2, timeout: .seconds(3), window: .seconds(10)))
        harness.connectNow()

        // When the link drops, the device stays silent for the whole window
        let watching = harness.send(.linkDown(.supervisionTimeout))
        #expect(watching.contains(.watchAdvertisements))
        #expect(harness.advance(by: .milliseconds(9999)).isEmpty)
        let expired = harness.advance(by: .milliseconds(1))

        // Then the empty window counted as a failed attempt, and the next window began
        #expect(expired.contains(.stopWatchingAdvertisements) && expired.contains(.watchAdvertisements))
        #expect(harness.eventNames == ["connected", "lost", "willReconnect(2)", "willReconnect(1)"])

        // When the device advertises during the second window
        harness.advance(by: .seconds(4))
        let seen = harness.send(.advertisementSeen)

        // Then watching stops, the window timer is cancelled and an attempt starts at once
        #expect(seen.first == .stopWatchingAdvertisements)
        #expect(seen.contains { if case .cancelTimer = $0 { true } else { false } })
        #expect(harness.attemptTimes.last == .seconds(14))
        harness.succeedAttempt()
        #expect(harness.eventNames.last == "reconnected")
    }

    @Test func exponentialBackOffWaitsWhatTheSeededSourceDrawsAndTheSameSeedAgain() {
        // Given two machines with full-jitter back-off and the same seed
        func attemptTimes(seed: UInt64) -> [Duration] {
            var harness = MachineHarness(
                strategy: .exponential(
                    initialDelay: .seconds(1), maximumDelay: .seconds(20), attempts: 5, timeout: .seconds(1)),
                seed: seed)
            harness.connectNow()
            harness.send(.linkDown(.supervisionTimeout))
            harness.advance(by: .seconds(200))
            return harness.attemptTimes
        }

        // When each loses its link and every attempt times out
        let first = attemptTimes(seed: 5)
        let again = attemptTimes(seed: 5)

        // Then both made the same 5 attempts at the same times, each wait within its cap
        #expect(first == again)
        #expect(first.count == 6)
        for (n, pair) in zip(first.dropFirst(), first.dropFirst(2)).enumerated() {
            let wait = pair.1 - pair.0 - .seconds(1)  // minus the previous attempt's timeout
            #expect(wait >= .zero && wait <= .seconds(min(20, 1 << (n + 1))))
        }
    }
}
