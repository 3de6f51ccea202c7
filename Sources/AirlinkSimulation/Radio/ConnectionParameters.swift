/// The parameters a link was established with, as the trace records them.
public struct ConnectionParameters: Sendable, Hashable, CustomStringConvertible {
    /// Time between connection events, 7.5 ms to 4 s (1.25 ms units on air).
    public var interval: Duration
    /// The peripheral latency, in connection events the peripheral may skip.
    public var latency: Int
    /// How long without a packet before either side considers the link lost, 100 ms to 32 s.
    public var supervisionTimeout: Duration
    /// The physical layer the link uses: LE 1M or LE 2M, which sets the air time of each byte.
    public var phy: PHY
    /// The data length (LL payload bytes) both ends support.
    public var dataLength: Int

    /// Creates the parameters.
    public init(interval: Duration, latency: Int, supervisionTimeout: Duration, phy: PHY, dataLength: Int) {
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
        self.phy = phy
        self.dataLength = dataLength
    }

    /// `interval=30ms latency=0 timeout=420ms phy=1M dl=251`, as the `connected` line reads.
    public var description: String {
        "interval=\(interval.traceDescription) latency=\(latency) timeout=\(supervisionTimeout.traceDescription) "
            + "phy=\(phy) dl=\(dataLength)"
    }
}
