/// What starts a reconnection attempt.
public enum ReconnectionTrigger: Sendable, Hashable, CustomStringConvertible {
    /// The attempt starts after this delay, counted from the loss or the failed attempt; an adapter
    /// that is off when it ends delays the attempt until power-on, and one that goes off and on
    /// during it neither shortens nor restarts it.
    case after(Duration)
    /// The attempt starts when the device is seen advertising (Airlink scans for it through the
    /// transport); if it is not seen within the duration, that counts as a failed attempt
    /// (`nil`: wait as long as it takes).
    case advertisement(within: Duration?)

    /// `after=2s`, `onAdvertisement within=60s`.
    public var description: String {
        switch self {
        case .after(let delay): "after=\(delay.text)"
        case .advertisement(let within): "onAdvertisement within=\(within?.text ?? "unlimited")"
        }
    }
}
