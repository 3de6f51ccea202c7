import AirlinkCore
import Glibc
import Testing

@testable import AirlinkBlueZ

/// libbluetooth's BD_ADDR helpers against Airlink's BDAddress, and HCI where the kernel lacks Bluetooth.
struct LibBluetoothTests {
    @Test func str2baAndBa2strAgreeWithBDAddress() throws {
        // Given addresses across the whole range, from a fixed seed
        var state: UInt64 = 0x5EED
        for _ in 0..<500 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let address = BDAddress(value: state >> 16)

            // When libbluetooth prints and parses them, and Airlink does the same
            let printed = LibBluetoothAddress.format(address)

            // Then both print the same text and read each other's text back to the same address
            #expect(printed == address.description)
            #expect(try LibBluetoothAddress.parse(printed) == address)
            #expect(try LibBluetoothAddress.parse(printed.lowercased()) == address)
            #expect(try BDAddress(parsing: printed) == address)
        }
    }

    @Test func bdaddrIsLeastSignificantByteFirst() {
        let raw = LibBluetoothAddress.bdaddr(BDAddress(value: 0xC0FF_EE00_0001))
        #expect(withUnsafeBytes(of: raw.b) { Array($0) } == [0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0])
    }

    @Test(arguments: ["C0-FF-EE-00-00-01", "C0:FF:EE:00:00", "C0:FF:EE:00:00:0G", "", "C0:FF:EE:00:00:01:02"])
    func libbluetoothRejectsWhatItCannotRead(text: String) {
        // The hyphen form is the one difference: BDAddress reads it, libbluetooth does not.
        let error = #expect(throws: AirlinkError.self) { _ = try LibBluetoothAddress.parse(text) }
        #expect(error?.code == .invalidDeviceID)
    }

    @Test func hciReportsWhyItIsUnavailable() {
        // Given this machine's kernel, when HCI adapters are listed
        let controller = LibBluetoothKernelHCI()
        do {
            let adapters = try controller.adapters()
            // Then on a machine with Bluetooth they have hciN names
            #expect(adapters.allSatisfy { BlueZPath.isValidAdapterName($0.name) })
        } catch {
            // Or the error is transportUnavailable, saying HCI is not available and naming the errno
            #expect(error.code == .transportUnavailable)
            #expect(error.message.contains("HCI not available"))
            guard case .posix(let code, _)? = error.cause else {
                Issue.record("expected an errno cause, got \(String(describing: error.cause))")
                return
            }
            #expect(error.message.contains("errno \(code)"))
        }
    }

    @Test func errnoAdviceNamesTheFix() {
        let missing = LibBluetoothKernelHCI.error(errno: EAFNOSUPPORT, call: "socket(AF_BLUETOOTH)")
        #expect(missing.message.contains("errno 97") && missing.message.contains("modprobe bluetooth"))
        let denied = LibBluetoothKernelHCI.error(errno: EPERM, call: "hci_read_rssi")
        #expect(denied.message.contains("setcap"))
        #expect(missing.cause == .posix(errno: EAFNOSUPPORT, call: "socket(AF_BLUETOOTH)"))
    }
}
