import AirlinkCore

/// A central's attempt to connect to a peripheral, from `connect` until the link is usable or the
/// attempt fails.
final class ConnectAttempt: RadioConfined, @unchecked Sendable {
    // @unchecked: used under the world's lock; debug builds check it at each entry point
    // (``RadioConfined/assertConfined(_:file:line:)``).
    let central: VirtualRadio
    let peripheral: RadioPeripheral
    let result = OneShot<LinkInfo>()
    var link: Link?
    var isPending = true
    /// An injected `.noAnswer`: the peripheral ignores this attempt.
    var ignored = false

    init(central: VirtualRadio, peripheral: RadioPeripheral) {
        self.central = central
        self.peripheral = peripheral
    }

    /// The world of the peripheral it connects to, whose lock guards it.
    var world: RadioWorld { peripheral.world }

    var isFinished: Bool { result.isDelivered }

    /// Leaves the peripheral's list of pending attempts (it no longer needs advertising events).
    func leavePending() {
        assertConfined()
        guard isPending else { return }
        isPending = false
        peripheral.pendingConnects.removeAll { $0 === self }
        peripheral.removeObserver()
    }

    /// Ends the attempt with `outcome`.
    func finish(_ outcome: Result<LinkInfo, AirlinkError>) {
        assertConfined()
        guard !isFinished else { return }
        leavePending()
        central.attempts.removeAll { $0 === self }
        result.resume(outcome)
    }

    /// Gives up (timeout or cancellation): a link half set up is closed.
    func abandon(with error: AirlinkError) {
        assertConfined()
        guard !isFinished else { return }
        finish(.failure(error))
        if let link, !link.isClosed {
            link.attempt = nil
            link.drop(reason: .localHostTerminated)
        }
    }
}
