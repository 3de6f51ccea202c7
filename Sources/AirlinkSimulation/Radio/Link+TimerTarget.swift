import AirlinkCore

/// A PDU that crossed the air in a connection event and waits for the event's delivery.
struct InFlightPDU {
    /// The connection event's delivery it belongs to.
    var batch: Int64
    /// Whether it goes to the central (otherwise to the peripheral).
    var toCentral: Bool
    /// The PDU's bytes.
    var bytes: [UInt8]
}

extension Link: TimerTarget {
    /// The tag of a delivery timer: negative, where a connection event's tag is its (non-negative) start.
    static func deliveryTag(_ batch: Int64) -> Int64 { -1 - batch }

    /// A connection event starts (`tag` is its start time) or its PDUs arrive (a negative tag).
    func timerFired(_ tag: Int64) {
        world.lock.withLock {
            if tag >= 0 {
                pumpAt = nil
                runEvent(at: tag)
            } else {
                deliver(batch: -1 - tag)
            }
        }
    }
}
