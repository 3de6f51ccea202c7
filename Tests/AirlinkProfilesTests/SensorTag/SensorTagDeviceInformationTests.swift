import AirlinkCore
import Testing

@testable import AirlinkProfiles

@Suite struct SensorTagDeviceInformationTests {
    @Test func systemIDIsBuiltFromTheAddressAsTIsFirmwareDoes() throws {
        // Given the address C0:FF:EE:00:00:01, least significant first 01 00 00 EE FF C0
        let address = try BDAddress(parsing: "C0:FF:EE:00:00:01")

        // Then the System ID is the three low bytes, two zeros, the three high bytes (SensorTag.c)
        #expect(SensorTagDeviceInformation.systemID(for: address) == [0x01, 0x00, 0x00, 0x00, 0x00, 0xEE, 0xFF, 0xC0])
    }

    @Test func cc2541ValuesInTableOrder() throws {
        // Given the CC2541 tag's values
        let info = SensorTagDeviceInformation.cc2541(address: try BDAddress(parsing: "BC:6A:29:AB:4B:0F"))

        // Then the characteristics come in the firmware's order with TI's values
        #expect(
            info.characteristics.map(\.uuid) == [
                .systemID, .modelNumberString, .serialNumberString, .firmwareRevisionString,
                .hardwareRevisionString, .softwareRevisionString, .manufacturerNameString, BluetoothUUID(0x2A2A),
                .pnpID,
            ])
        #expect(try String(gattBytes: info.characteristics[6].value) == "Texas Instruments")
        #expect(try String(gattBytes: info.characteristics[3].value) == "1.5")
        // IEEE 11073 body 0xFE (experimental), structure 0x00, then "experimental"
        #expect(info.regulatoryCertification.prefix(2) == [0xFE, 0x00])
        #expect(try String(gattBytes: Array(info.regulatoryCertification.dropFirst(2))) == "experimental")
        // PnP ID: source 1 (Bluetooth SIG), vendor 0x000D (Texas Instruments), product 0, version 0x0110
        #expect(info.pnpID == [0x01, 0x0D, 0x00, 0x00, 0x00, 0x10, 0x01])
        #expect(info.systemID.count == 8)
    }
}
