/// What a link's timer does when it fires: the link arms one per connection event that carries
/// traffic and one per event's delivery of PDUs.
///
/// Packed by sign into the kernel's 64-bit ``TimerTag``, so a timer costs no allocation: a connection
/// event by its start (never negative), a delivery by `-1 - batch` (always negative).
enum LinkTimer: Equatable {
    /// The connection event starting at `start` runs.
    case connectionEvent(start: VirtualInstant)
    /// The PDUs of the connection event numbered `batch` arrive at both ends.
    case delivery(batch: Int64)

    /// The timer a link armed with `tag`.
    @inline(__always)
    init(_ tag: TimerTag) {
        self =
            tag.rawValue >= 0
            ? .connectionEvent(start: VirtualInstant(nanosecondsSinceStart: tag.rawValue))
            : .delivery(batch: -1 - tag.rawValue)
    }

    /// The tag to arm the kernel's timer with.
    @inline(__always)
    var tag: TimerTag {
        switch self {
        case .connectionEvent(let start): TimerTag(rawValue: start.nanosecondsSinceStart)
        case .delivery(let batch): TimerTag(rawValue: -1 - batch)
        }
    }
}
