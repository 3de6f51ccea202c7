import AirlinkCore

/// The parameters a virtual central asks for on every link it makes, and the timing model's inputs.
///
/// The defaults follow Linux: connection interval 30 ms (BlueZ's minimum default, 0x0018), latency 0,
/// supervision timeout 420 ms (0x002A), LE 1M, data length 251 (LE Data Length Extension), an event
/// length of the whole interval, and an ATT MTU request of 247.
public struct LinkParameters: Sendable, Hashable {
    /// The connection interval, 7.5 ms to 4 s in 1.25 ms units (Vol 6, Part B, 4.5.1).
    public var connectionInterval: Duration
    /// Peripheral latency: connection events the peripheral may skip when it has nothing to send.
    public var peripheralLatency: Int
    /// The supervision timeout: a link silent this long is lost with reason 0x08.
    public var supervisionTimeout: Duration
    /// The physical layer the link uses: LE 1M or LE 2M; it sets the air time of each packet.
    public var phy: PHY
    /// The central's LL data length, 27–251 bytes (the link uses the smaller of both ends').
    public var dataLength: Int
    /// How long each connection event may last; `nil` for the whole interval.
    public var eventLength: Duration?
    /// The ATT MTU the central asks for on connect, 23–517.
    public var requestedMTU: Int
    /// Whether the central subscribes to Service Changed on connect, as BlueZ does.
    public var subscribesToServiceChanged: Bool

    /// Creates parameters; see the type's description for the defaults.
    public init(
        connectionInterval: Duration = .milliseconds(30), peripheralLatency: Int = 0,
        supervisionTimeout: Duration = .milliseconds(420), phy: PHY = .le1M, dataLength: Int = 251,
        eventLength: Duration? = nil, requestedMTU: Int = 247, subscribesToServiceChanged: Bool = true
    ) {
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
        self.phy = phy
        self.dataLength = dataLength
        self.eventLength = eventLength
        self.requestedMTU = requestedMTU
        self.subscribesToServiceChanged = subscribesToServiceChanged
    }

    /// Checks the parameters against the specification's ranges.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the parameter.
    public func validate() throws(AirlinkError) {
        let interval = connectionInterval.nanoseconds
        if interval < 7_500_000 || interval > 4_000_000_000 || interval % 1_250_000 != 0 {
            throw AirlinkError(
                .invalidArgument,
                "connection interval \(connectionInterval) is not a multiple of 1.25 ms between 7.5 ms and 4 s")
        }
        if !(0...499).contains(peripheralLatency) {
            throw AirlinkError(.invalidArgument, "peripheral latency \(peripheralLatency) lies outside 0–499")
        }
        let minimumTimeout = 2 * interval * Int64(peripheralLatency + 1)
        if supervisionTimeout.nanoseconds <= minimumTimeout || supervisionTimeout > .seconds(32)
            || supervisionTimeout < .milliseconds(100)
        {
            throw AirlinkError(
                .invalidArgument,
                "supervision timeout \(supervisionTimeout) must lie in 100 ms–32 s and exceed "
                    + "(1 + latency) × interval × 2")
        }
        if !(27...251).contains(dataLength) {
            throw AirlinkError(.invalidArgument, "data length \(dataLength) lies outside 27–251 bytes")
        }
        if !(23...517).contains(requestedMTU) {
            throw AirlinkError(.invalidArgument, "requested MTU \(requestedMTU) lies outside 23–517")
        }
        if let eventLength, eventLength <= .zero || eventLength > connectionInterval {
            throw AirlinkError(.invalidArgument, "event length \(eventLength) must be positive and within the interval")
        }
    }
}
