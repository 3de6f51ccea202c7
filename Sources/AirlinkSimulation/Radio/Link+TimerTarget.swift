import AirlinkCore

/// A PDU that crossed the air in a connection event and waits for the event's delivery.
struct InFlightPDU {
    /// The connection event's delivery it belongs to.
    var batch: Int64
    /// Whether it goes to the central (otherwise to the peripheral).
    var toCentral: Bool
    /// The PDU.
    var payload: LinkPayload
}

extension Link: TimerTarget {
    /// A connection event starts, or the PDUs of one arrive.
    func timerFired(_ tag: TimerTag) {
        world.lock.withLock {
            switch LinkTimer(tag) {
            case .connectionEvent(let start):
                pumpAt = nil
                runEvent(at: start)
            case .delivery(let batch):
                deliver(batch: batch)
            }
        }
    }
}
