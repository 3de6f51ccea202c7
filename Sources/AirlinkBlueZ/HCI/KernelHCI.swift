import AirlinkCore

/// What BlueZ's D-Bus API lacks, through the kernel's HCI sockets: the adapters the kernel has and
/// the RSSI of a connection (HCI Read RSSI, Core Spec Vol 4, Part E, 7.5.4).
///
/// ``LibBluetoothKernelHCI`` implements it with libbluetooth; tests use a double. Where the
/// kernel has no Bluetooth (no `AF_BLUETOOTH`, errno 97) every call throws
/// ``/AirlinkCore/AirlinkError/Code/transportUnavailable`` naming the errno and the fix.
public protocol KernelHCI: Sendable {
    /// The kernel's HCI adapters, in index order.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/transportUnavailable`` when HCI is not available.
    func adapters() throws(AirlinkError) -> [HCIAdapter]

    /// The RSSI of the LE connection to `address` on `adapter`, in dBm.
    ///
    /// - Parameters:
    ///   - adapter: the adapter's name, `hci0`.
    ///   - address: the connected device's address.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/transportUnavailable`` when HCI is not available,
    ///   ``/AirlinkCore/AirlinkError/Code/notConnected`` when the kernel has no such connection.
    func readRSSI(adapter: String, address: BDAddress) throws(AirlinkError) -> Int
}

/// An adapter as the kernel lists it.
public struct HCIAdapter: Sendable, Hashable, CustomStringConvertible {
    /// `hci0`.
    public var name: String
    /// The adapter's own address.
    public var address: BDAddress
    /// Whether the adapter is up (HCI_UP).
    public var isUp: Bool

    /// Creates an adapter description.
    public init(name: String, address: BDAddress, isUp: Bool) {
        self.name = name
        self.address = address
        self.isUp = isUp
    }

    /// `hci0 00:1A:7D:DA:71:13 up`.
    public var description: String { "\(name) \(address) \(isUp ? "up" : "down")" }
}
