import AirlinkCore

/// A central's attempt to connect to a peripheral, from `connect` until the link is usable or the
/// attempt fails.
final class ConnectAttempt: @unchecked Sendable {
    // @unchecked: used under the world's lock.
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

    var isFinished: Bool { result.isDelivered }

    /// Leaves the peripheral's list of pending attempts (it no longer needs advertising events).
    func leavePending() {
        guard isPending else { return }
        isPending = false
        peripheral.pendingConnects.removeAll { $0 === self }
        peripheral.removeObserver()
    }

    /// Ends the attempt with `outcome`.
    func finish(_ outcome: Result<LinkInfo, AirlinkError>) {
        guard !isFinished else { return }
        leavePending()
        central.attempts.removeAll { $0 === self }
        result.resume(outcome)
    }

    /// Gives up (timeout or cancellation): a link half set up is closed.
    func abandon(with error: AirlinkError) {
        guard !isFinished else { return }
        finish(.failure(error))
        if let link, !link.isClosed {
            link.attempt = nil
            link.drop(reason: .localHostTerminated)
        }
    }
}
