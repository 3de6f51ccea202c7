import AirlinkCore
import CBlueZ
import Glibc

/// ``KernelHCI`` on libbluetooth's HCI socket calls (`hci_devinfo`, `hci_read_rssi`).
public struct LibBluetoothKernelHCI: KernelHCI {
    /// How long HCI Read RSSI may take.
    public var timeout: Duration

    /// Creates a controller.
    ///
    /// - Parameter timeout: how long HCI commands may take (default one second).
    public init(timeout: Duration = .seconds(1)) { self.timeout = timeout }

    /// The kernel's HCI adapters (HCIGETDEVLIST, then HCIGETDEVINFO for each).
    public func adapters() throws(AirlinkError) -> [HCIAdapter] {
        var ids = [UInt16](repeating: 0, count: 16)
        let count = airlink_hci_device_ids(&ids, Int32(ids.count))
        guard count >= 0 else { throw Self.error(errno: -count, call: "socket(AF_BLUETOOTH)/HCIGETDEVLIST") }
        var adapters: [HCIAdapter] = []
        for id in ids.prefix(Int(count)) {
            var info = hci_dev_info()
            let result = airlink_hci_device_info(Int32(id), &info)
            guard result == 0 else { throw Self.error(errno: -result, call: "HCIGETDEVINFO hci\(id)") }
            let name = withUnsafeBytes(of: info.name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            adapters.append(
                HCIAdapter(
                    name: name, address: LibBluetoothAddress.address(info.bdaddr),
                    isUp: airlink_hci_device_is_up(&info) != 0))
        }
        return adapters
    }

    /// HCI Read RSSI on the LE connection to `address` (HCIGETCONNINFO for its handle first).
    public func readRSSI(adapter: String, address: BDAddress) throws(AirlinkError) -> Int {
        guard BlueZPath.isValidAdapterName(adapter), let index = Int32(adapter.dropFirst(3)) else {
            throw AirlinkError(.invalidArgument, "\"\(adapter)\" is not an adapter name such as hci0")
        }
        var target = LibBluetoothAddress.bdaddr(address)
        var rssi: Int8 = 0
        let milliseconds = Int32(
            timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let result = airlink_hci_read_rssi(index, &target, 0x80, &rssi, milliseconds)
        guard result == 0 else {
            if -result == ENOTCONN || -result == ENOENT {
                throw AirlinkError(
                    .notConnected, "the kernel has no LE connection to \(address) on \(adapter)",
                    cause: .posix(errno: -result, call: "HCIGETCONNINFO"))
            }
            throw Self.error(errno: -result, call: "hci_read_rssi on \(adapter)")
        }
        return Int(rssi)
    }

    /// The error for a failed HCI call, with the fix for the usual causes.
    package static func error(errno code: Int32, call: String) -> AirlinkError {
        let advice: String
        switch code {
        case EAFNOSUPPORT:
            advice =
                "HCI not available: the kernel has no Bluetooth support (errno 97, EAFNOSUPPORT); load it with "
                + "`sudo modprobe bluetooth`, or run on a machine (not a container or VM without one) with a "
                + "Bluetooth controller"
        case EPERM, EACCES:
            advice =
                "HCI not available to this user (errno \(code)): run as root or grant the binary "
                + "`sudo setcap cap_net_raw,cap_net_admin+eip`"
        case ENODEV:
            advice =
                "HCI not available: no such adapter (errno 19, ENODEV); check `hciconfig -a` or `bluetoothctl list`"
        case ENETDOWN:
            advice = "HCI not available: the adapter is down (errno 100); `bluetoothctl power on`"
        default:
            advice = "HCI not available: \(call) failed with errno \(code) (\(String(cString: strerror(code))))"
        }
        return AirlinkError(.transportUnavailable, advice, cause: .posix(errno: code, call: call))
    }
}
