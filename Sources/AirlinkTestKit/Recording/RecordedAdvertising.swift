import AirlinkCore

/// How a recorded device advertised, as the transport reported it: the AD structures, the interval
/// observed, whether it accepted connections, its TX power and the RSSI seen.
public struct RecordedAdvertising: Sendable, Hashable {
    /// The advertising data: the AD structures as the transport reported them (Core Spec Vol 3, Part C, 11).
    /// Transports report decoded advertisements, so this is their canonical encoding.
    public var data: [UInt8]
    /// The scan response data (the latest one an active scan got), when the transport reports it apart from the
    /// advertising data; `nil` when there was none or the transport does not (BlueZ merges both into the device's
    /// properties).
    public var scanResponse: [UInt8]?
    /// The advertising interval estimated from the gaps between reports, a multiple of 0.625 ms; `nil` below two
    /// reports.
    /// Each advertising event adds 0–10 ms of advDelay, and a stack may drop reports, so it is an estimate.
    public var interval: Duration?
    /// Whether the advertisements accepted connections.
    public var isConnectable: Bool
    /// The TX power level advertised, in dBm.
    public var txPower: Int8?
    /// The RSSI of the reports, or `nil` when none carried one.
    public var rssi: RSSIDistribution?
    /// How many advertisements the transport reported.
    public var reports: Int

    /// Creates a recorded advertising.
    public init(
        data: [UInt8], scanResponse: [UInt8]? = nil, interval: Duration?, isConnectable: Bool, txPower: Int8?,
        rssi: RSSIDistribution?, reports: Int
    ) {
        self.data = data
        self.scanResponse = scanResponse
        self.interval = interval
        self.isConnectable = isConnectable
        self.txPower = txPower
        self.rssi = rssi
        self.reports = reports
    }

    /// The interval estimated from report times: the median gap less the mean advDelay (5 ms), rounded to the
    /// 0.625 ms steps of the Advertising_Interval parameter (Core Spec Vol 4, Part E, 7.8.5) and kept within its
    /// 20 ms–10.24 s; `nil` below two reports.
    public static func interval(of times: [Duration]) -> Duration? {
        guard times.count >= 2 else { return nil }
        let gaps = zip(times.dropFirst(), times).map { ($0 - $1).nanoseconds }.sorted()
        // Each gap is the interval plus the difference of two advDelays; the mean advDelay (5 ms) is taken off.
        let median = gaps[gaps.count / 2] - 5_000_000
        let step: Int64 = 625_000
        let rounded = Duration.nanoseconds((median + step / 2) / step * step)
        return min(max(rounded, .milliseconds(20)), .milliseconds(10_240))
    }
}
