import AirlinkCore
import Testing

@testable import AirlinkBlueZ

/// The decisions of connect, link loss and Service Changed, without D-Bus.
struct BlueZLinkStateMachineTests {
    private func fresh() -> BlueZLinkStateMachine {
        BlueZLinkStateMachine(connected: false, resolved: false, serviceCount: 0)
    }

    @Test func readyOnlyWhenReplyConnectedResolvedAndObjectsAreIn() {
        // Given a connect request
        var machine = fresh()
        #expect(machine.handle(.connectRequested) == [.callConnect])

        // When BlueZ exports the objects, connects, replies and resolves, in that order
        #expect(machine.handle(.serviceObjectsChanged(count: 2)) == [])
        #expect(machine.handle(.connectedChanged(true)) == [])
        #expect(machine.handle(.connectReplied) == [])

        // Then only ServicesResolved makes the link usable, announced once
        #expect(machine.handle(.servicesResolvedChanged(true)) == [.succeed, .emitConnected])
        #expect(machine.isReady)
        #expect(machine.handle(.connectRequested) == [.succeed])
    }

    @Test func replyAfterResolutionCompletesTheAttempt() {
        var machine = fresh()
        _ = machine.handle(.connectRequested)
        _ = machine.handle(.connectedChanged(true))
        _ = machine.handle(.serviceObjectsChanged(count: 1))
        #expect(machine.handle(.servicesResolvedChanged(true)) == [])
        #expect(machine.handle(.connectReplied) == [.succeed, .emitConnected])
    }

    @Test func resolvedBeforeObjectsRereadsThenWaitsThenRereads() {
        // Given a link BlueZ calls resolved before any GATT object exists
        var machine = fresh()
        _ = machine.handle(.connectRequested)
        _ = machine.handle(.connectedChanged(true))
        _ = machine.handle(.connectReplied)

        // When ServicesResolved arrives, the tree is re-read; with still no objects, a grace period starts
        #expect(machine.handle(.servicesResolvedChanged(true)) == [.refreshObjects])
        #expect(machine.handle(.objectsRefreshed(serviceCount: 0)) == [.armGrace])

        // When the first service object appears, the tree is re-read once more before the link is usable
        #expect(machine.handle(.serviceObjectsChanged(count: 1)) == [.refreshObjects])
        #expect(machine.handle(.serviceObjectsChanged(count: 2)) == [])
        #expect(machine.handle(.objectsRefreshed(serviceCount: 2)) == [.succeed, .emitConnected])
    }

    @Test func graceExpiryAcceptsADeviceWithoutServices() {
        var machine = fresh()
        _ = machine.handle(.connectRequested)
        _ = machine.handle(.connectedChanged(true))
        _ = machine.handle(.connectReplied)
        _ = machine.handle(.servicesResolvedChanged(true))
        _ = machine.handle(.objectsRefreshed(serviceCount: 0))
        #expect(machine.handle(.graceExpired) == [.refreshObjects])
        #expect(machine.handle(.objectsRefreshed(serviceCount: 0)) == [.succeed, .emitConnected])
    }

    @Test func timeoutAbortsAndFailsOnce() {
        var machine = fresh()
        _ = machine.handle(.connectRequested)
        let actions = machine.handle(.timedOut(.seconds(3)))
        #expect(actions.first == .abortAttempt)
        guard case .fail(let error)? = actions.last else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .timeout)
        #expect(machine.handle(.timedOut(.seconds(3))) == [])
        #expect(machine.handle(.connectReplied) == [])
    }

    @Test func linkDropDuringAttemptIsAConnectionFailure() {
        var machine = fresh()
        _ = machine.handle(.connectRequested)
        _ = machine.handle(.connectedChanged(true))
        let actions = machine.handle(.connectedChanged(false))
        guard case .fail(let error)? = actions.first else {
            Issue.record("expected a failure, got \(actions)")
            return
        }
        #expect(error.code == .connectionFailed)
        #expect(!machine.isConnecting)
    }

    @Test func linkLossAnnouncesTheReasonAndFailsOperations() {
        // Given a usable link and BlueZ saying the peer ended it
        var machine = BlueZLinkStateMachine(connected: false, resolved: false, serviceCount: 1)
        _ = machine.handle(.connectRequested)
        _ = machine.handle(.connectedChanged(true))
        _ = machine.handle(.connectReplied)
        _ = machine.handle(.servicesResolvedChanged(true))
        _ = machine.handle(.disconnectReason(.remoteUserTerminated))

        // When Connected turns false
        let actions = machine.handle(.connectedChanged(false))

        // Then the link ends with that reason and pending operations fail with linkLost
        #expect(actions.first == .emitDisconnected(.remoteUserTerminated))
        guard case .failOperations(let error)? = actions.last else {
            Issue.record("expected failOperations")
            return
        }
        #expect(error.code == .linkLost)
        #expect(!machine.isReady)
    }

    @Test func localDisconnectIsReportedAsLocal() {
        var machine = BlueZLinkStateMachine(connected: false, resolved: false, serviceCount: 1)
        _ = machine.handle(.connectRequested)
        _ = machine.handle(.connectedChanged(true))
        _ = machine.handle(.connectReplied)
        _ = machine.handle(.servicesResolvedChanged(true))
        _ = machine.handle(.disconnectRequested)
        #expect(machine.handle(.connectedChanged(false)).first == .emitDisconnected(.localHostTerminated))
    }

    /// A machine whose link is usable, with two services.
    private func ready() -> BlueZLinkStateMachine {
        var machine = BlueZLinkStateMachine(connected: false, resolved: false, serviceCount: 2)
        _ = machine.handle(.connectRequested)
        _ = machine.handle(.connectedChanged(true))
        _ = machine.handle(.connectReplied)
        _ = machine.handle(.servicesResolvedChanged(true))
        return machine
    }

    @Test func serviceChangeIsAnnouncedOnceSettledAndOnceUntilRediscovered() {
        // Given a usable link
        var machine = ready()

        // When objects change one by one, each change restarting the quiet period
        #expect(machine.handle(.serviceObjectsChanged(count: 1)) == [.armSettleLimit(1), .armSettleQuiet(2)])
        #expect(machine.handle(.serviceObjectsChanged(count: 0)) == [.armSettleQuiet(3)])
        #expect(machine.handle(.settleQuietEnded(2)) == [])
        // (the services went and none came back: bluetoothd is still discovering the changed range, however
        // quiet its objects are)
        #expect(machine.handle(.settleQuietEnded(3)) == [])
        #expect(machine.handle(.serviceObjectsChanged(count: 2)) == [.armSettleQuiet(4)])
        #expect(machine.handle(.attributeObjectsChanged) == [.armSettleQuiet(5)])

        // Then the change is announced once they are back and quiet, and the limit's timer is stale
        #expect(machine.handle(.settleQuietEnded(5)) == [.emitServicesChanged])
        #expect(machine.handle(.settleLimitReached(1)) == [])

        // And a further change is announced only after the services were discovered again
        _ = machine.handle(.serviceObjectsChanged(count: 1))
        #expect(machine.handle(.settleQuietEnded(7)) == [])
        machine.servicesDiscovered()
        #expect(machine.handle(.serviceObjectsChanged(count: 2)) == [.armSettleQuiet(8)])
        #expect(machine.handle(.settleQuietEnded(8)) == [.emitServicesChanged])
    }

    @Test func aChangeThatOnlyRemovesServicesIsAnnouncedAtTheLimit() {
        // Given a usable link
        var machine = ready()
        // When a service goes and none comes back (a firmware update that removed one)
        #expect(machine.handle(.serviceObjectsChanged(count: 1)) == [.armSettleLimit(1), .armSettleQuiet(2)])
        // Then quiet is not enough: bluetoothd exports what it found only when its discovery of the range ends
        #expect(machine.handle(.settleQuietEnded(2)) == [])
        // And the change is announced at the settle limit
        #expect(machine.handle(.settleLimitReached(1)) == [.emitServicesChanged])
    }

    @Test func serviceChangeWaitsForServicesResolvedAgain() {
        // Given a usable link whose ServicesResolved turns false (BlueZ re-resolving)
        var machine = ready()
        #expect(machine.handle(.servicesResolvedChanged(false)) == [.armSettleLimit(1)])

        // When objects come and go meanwhile, no quiet period counts
        #expect(machine.handle(.serviceObjectsChanged(count: 0)) == [])
        #expect(machine.handle(.attributeObjectsChanged) == [])

        // Then the change is announced when ServicesResolved is true again
        #expect(machine.handle(.serviceObjectsChanged(count: 1)) == [])
        #expect(machine.handle(.servicesResolvedChanged(true)) == [.emitServicesChanged])
    }

    @Test func serviceChangeIsAnnouncedAtTheLimitIfNeverSettled() {
        // Given a usable link whose ServicesResolved turns false and never true again
        var machine = ready()
        _ = machine.handle(.servicesResolvedChanged(false))

        // When the limit passes, then the change is announced (the layers report what is missing)
        #expect(machine.handle(.settleLimitReached(1)) == [.emitServicesChanged])
    }

    @Test func linkLossEndsASettling() {
        // Given a usable link settling a change
        var machine = ready()
        _ = machine.handle(.servicesResolvedChanged(false))

        // When the link drops, then its end is announced and the settling's timer is stale
        #expect(machine.handle(.connectedChanged(false)).first == .emitDisconnected(.supervisionTimeout))
        #expect(machine.handle(.settleLimitReached(1)) == [])
    }

    @Test func adapterPoweredOffFailsAnAttemptAtOnce() {
        // Given an attempt BlueZ has not answered
        var machine = fresh()
        _ = machine.handle(.connectRequested)

        // When the adapter goes off, then the attempt fails with adapterPoweredOff
        let actions = machine.handle(.adapterPoweredOff("hci0"))
        guard case .fail(let error)? = actions.first else {
            Issue.record("expected the attempt to fail, got \(actions)")
            return
        }
        #expect(error.code == .adapterPoweredOff)
        #expect(!machine.isConnecting)
    }

    @Test func linkBlueZBringsUpByItselfIsAnnounced() {
        var machine = fresh()
        _ = machine.handle(.serviceObjectsChanged(count: 1))
        _ = machine.handle(.connectedChanged(true))
        #expect(machine.handle(.servicesResolvedChanged(true)) == [.emitConnected])
    }
}
