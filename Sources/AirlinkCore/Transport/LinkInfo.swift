/// The parameters of an established link.
public struct LinkInfo: Sendable, Hashable {
    /// The negotiated ATT MTU (23 until an exchange raised it).
    public var mtu: Int
    /// The connection interval, if the stack reports it.
    public var connectionInterval: Duration?

    /// Creates link parameters.
    public init(mtu: Int, connectionInterval: Duration? = nil) {
        self.mtu = mtu
        self.connectionInterval = connectionInterval
    }

    /// The longest value a write with response can carry in one request: MTU − 3 (longer values
    /// are written with Prepare/Execute Write, up to 512 bytes).
    public var maximumWriteWithResponseLength: Int { 512 }

    /// The longest value a write without response can carry: MTU − 3.
    public var maximumWriteWithoutResponseLength: Int { mtu - 3 }
}
