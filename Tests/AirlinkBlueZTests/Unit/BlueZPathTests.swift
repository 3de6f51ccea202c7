import AirlinkCore
import Testing

@testable import AirlinkBlueZ

/// Handles from object paths, and GATT values from a tree.
struct BlueZPathTests {
    @Test func handlesComeFromPathElements() {
        let device = BlueZPath.device(BDAddress(value: 0xC0FF_EE00_0001), adapter: "hci1")
        #expect(device == "/org/bluez/hci1/dev_C0_FF_EE_00_00_01")
        #expect(BlueZPath.handle(of: device + "/service000a", prefix: "service") == ATTHandle(0x000A))
        #expect(BlueZPath.handle(of: device + "/service000a/char00ff", prefix: "char") == ATTHandle(0x00FF))
        #expect(BlueZPath.handle(of: device + "/service000a/char000b/desc000d", prefix: "desc") == ATTHandle(0x000D))
        #expect(BlueZPath.handle(of: device + "/service0000", prefix: "service") == nil)
        #expect(BlueZPath.handle(of: device + "/service00zz", prefix: "service") == nil)
        #expect(BlueZPath.handle(of: device + "/char000b", prefix: "service") == nil)
    }

    @Test(arguments: [
        ("hci0", true), ("hci12", true), ("hci", false), ("HCI0", false), ("hci0a", false), ("usb0", false),
    ])
    func adapterNames(name: String, valid: Bool) {
        #expect(BlueZPath.isValidAdapterName(name) == valid)
    }

    @Test func flagsBecomeProperties() {
        #expect(
            BlueZObjectTree.properties(fromFlags: ["read", "write-without-response", "notify", "reliable-write", "x"])
                == [.read, .writeWithoutResponse, .notify, .extendedProperties])
    }
}
