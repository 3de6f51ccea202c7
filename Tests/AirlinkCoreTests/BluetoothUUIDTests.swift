import Testing

@testable import AirlinkCore

@Suite struct BluetoothUUIDTests {
    @Test func shortFormEqualsItsExpansionOverTheBaseUUID() throws {
        // Given the Battery Service as 16 bits and as 128 bits
        let short = BluetoothUUID(0x180F)
        let long = try BluetoothUUID(parsing: "0000180F-0000-1000-8000-00805F9B34FB")

        // Then they are one UUID, printed in its shortest form
        #expect(short == long)
        #expect(long.description == "180F")
        #expect(short.uuidString == "0000180F-0000-1000-8000-00805F9B34FB")
    }

    @Test(arguments: ["180F", "0x180F", "0X180f", "0000180F", "0000180f-0000-1000-8000-00805f9b34fb"])
    func parsesEveryWrittenForm(text: String) throws {
        #expect(try BluetoothUUID(parsing: text) == BluetoothUUID(0x180F))
    }

    @Test func vendorUUIDKeepsItsLongForm() throws {
        let uuid = try BluetoothUUID(parsing: "68753a44-4d6f-1226-9c60-0050e4c00066")
        #expect(uuid.uint16 == nil)
        #expect(uuid.description == "68753A44-4D6F-1226-9C60-0050E4C00066")
        #expect(try BluetoothUUID(littleEndian: uuid.littleEndianBytes) == uuid)
    }

    @Test func thirtyTwoBitFormRoundTrips() throws {
        let uuid = try BluetoothUUID(parsing: "F000AA00")
        #expect(uuid.uint16 == nil)
        #expect(uuid.uint32 == 0xF000_AA00)
        #expect(uuid.description == "F000AA00")
        #expect(uuid.littleEndianBytes == [0x00, 0xAA, 0x00, 0xF0])
    }

    @Test(arguments: [
        ("", "it is empty"),
        ("18G0", "not a hex digit"),
        ("180", "it has 3 characters"),
        ("0000180F-0000-1000-8000_00805F9B34FB", "8-4-4-4-12"),
    ])
    func rejectsBadStringsNamingTheFault(text: String, why: String) {
        #expect {
            try BluetoothUUID(parsing: text)
        } throws: { error in
            guard let error = error as? AirlinkError else { return false }
            return error.code == .invalidUUID && error.message.contains("\"\(text)\"") && error.message.contains(why)
        }
    }

    @Test func littleEndianBytesOfWrongLengthAreRejected() {
        #expect(throws: AirlinkError.self) { try BluetoothUUID(littleEndian: [0x0F, 0x18, 0x00]) }
    }
}
