import AirlinkSimulation
import Testing

@testable import AirlinkCore

/// The Database Hash (Core Spec Vol 3, Part G, 7.3) and the AES-CMAC call under it.
@Suite struct GATTDatabaseHashTests {
    @Test func aesCMACMatchesRFC4493Vectors() throws {
        // Given RFC 4493's key and message (section 4, examples 1 to 4: 0, 16, 40 and 64 bytes)
        let key = bytes("2B7E151628AED2A6ABF7158809CF4F3C")
        let message = bytes(
            "6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E51"
                + "30C81C46A35CE411E5FBC1191A0A52EFF69F2445DF4F9B17AD2B417BE66C3710")
        let expected = [
            0: "BB1D6929E95937287FA37D129B756746", 16: "070A16B46B4D4144F79BDD9DD04A287C",
            40: "DFA66747DE9AE63030CA32611497C827", 64: "51F0BEBF7E3B9D92FC49741779363CFE",
        ]

        for length in [0, 16, 40, 64] {
            // When each prefix is MACed through the call the Database Hash makes
            let mac = try AESCMAC.mac(key: key, message: Array(message.prefix(length)))

            // Then the MAC is the RFC's
            #expect(mac == bytes(expected[length] ?? ""), "RFC 4493 example with \(length) bytes")
        }
    }

    @Test func aesCMACRefusesAKeyOfTheWrongLength() {
        // When the key is 15 bytes
        // Then the call is refused as a bad argument naming the length
        let error = #expect(throws: AirlinkError.self) {
            try AESCMAC.mac(key: [UInt8](repeating: 0, count: 15), message: [])
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("not 15") == true)
    }

    @Test func sampleDatabaseHashesToTheSpecificationsValue() {
        // Given the sample database of Vol 3, Part G, Appendix B, every attribute (values included)
        let table = Self.sampleDatabase

        // When it is hashed
        let hash = GATTDatabaseHash(attributes: table)

        // Then the message is the appendix's blocks M0 to M6 and the hash its value
        #expect(GATTDatabaseHash.message(over: table) == Self.sampleMessage)
        #expect(hash.description == "F1CA2D48ECF58BAC8A8830BBB9FBA990")
        #expect(hash.bytes == bytes("F1CA2D48ECF58BAC8A8830BBB9FBA990"))
    }

    @Test func attributesAreHashedInHandleOrderWhateverOrderTheyCome() {
        // Given the sample database listed backwards
        let reversed = Array(Self.sampleDatabase.reversed())

        // Then its hash is the sample's
        #expect(GATTDatabaseHash(attributes: reversed).description == "F1CA2D48ECF58BAC8A8830BBB9FBA990")
    }

    @Test func emptyDatabaseHashesTheEmptyMessage() {
        // Given no attributes at all
        let hash = GATTDatabaseHash(attributes: [GATTDatabaseHash.Attribute]())

        // Then the hash is AES-CMAC of nothing under the zero key
        #expect(GATTDatabaseHash.message(over: [GATTDatabaseHash.Attribute]()).isEmpty)
        #expect(hash.description == "4387C14B46EF7E176DCEEFA862D72FF9")
    }

    @Test func genericAccessAndGenericAttributeAloneHashOnTheirOwn() {
        // Given only the sample's Generic Access and Generic Attribute services (handles 0x0001 to 0x000D)
        let table = Self.sampleDatabase.filter { $0.handle <= ATTHandle(0x000D) }

        // When it is hashed
        let hash = GATTDatabaseHash(attributes: table)

        // Then the message is the sample's up to the Database Hash declaration, and the hash differs from the sample's
        #expect(GATTDatabaseHash.message(over: table) == Array(Self.sampleMessage.prefix(61)))
        #expect(hash.description == "7A98D465A0857C100545143CD970EE3A")
    }

    @Test func changingACharacteristicsPropertiesChangesTheHash() {
        // Given the sample with the Battery Level declaration (0x0015) now also notifying (0x12, not 0x02)
        var table = Self.sampleDatabase
        table[0x15 - 1].value[0] = 0x12

        // Then the hash changes
        #expect(GATTDatabaseHash(attributes: table) != GATTDatabaseHash(attributes: Self.sampleDatabase))
    }

    @Test func movingAHandleChangesTheHash() {
        // Given the sample with the battery service moved up one handle (0x0015 to 0x0017), as after a firmware
        // update that added an attribute before it
        let table = Self.sampleDatabase.map { attribute in
            var moved = attribute
            if attribute.handle >= ATTHandle(0x0014) { moved.handle = ATTHandle(attribute.handle.rawValue + 1) }
            return moved
        }

        // Then the hash changes
        #expect(GATTDatabaseHash(attributes: table) != GATTDatabaseHash(attributes: Self.sampleDatabase))
    }

    @Test func changingValuesThatAreNotLayoutLeavesTheHash() {
        // Given the sample with new values in a characteristic value, a CCCD and a user description
        var table = Self.sampleDatabase
        table[0x16 - 1].value = [0x2A]  // Battery Level reads 42 %
        table[0x12 - 1].value = [0x02, 0x00]  // a client subscribed to glucose indications
        table.append(.init(handle: ATTHandle(0x0017), type: .characteristicUserDescription, value: Array("a".utf8)))
        var renamed = table
        renamed[renamed.count - 1].value = Array("battery".utf8)

        // Then only the added descriptor's handle and type changed the hash, none of the values
        #expect(
            GATTDatabaseHash(attributes: Array(table.dropLast())) == GATTDatabaseHash(attributes: Self.sampleDatabase))
        #expect(GATTDatabaseHash(attributes: renamed) == GATTDatabaseHash(attributes: table))
        #expect(GATTDatabaseHash(attributes: table) != GATTDatabaseHash(attributes: Self.sampleDatabase))
    }

    @Test(arguments: [0x2901, 0x2902, 0x2903, 0x2904, 0x2905] as [UInt16])
    func runTimeDescriptorsEnterByHandleAndTypeOnly(type: UInt16) {
        // Given one of the five descriptors whose value may change, with a value, at 0x0102
        let descriptor = GATTDatabaseHash.Attribute(
            handle: ATTHandle(0x0102), type: BluetoothUUID(type), value: [0xAA, 0xBB])

        // Then it contributes its handle and type, not its value
        #expect(
            GATTDatabaseHash.message(over: [descriptor])
                == [0x02, 0x01, UInt8(truncatingIfNeeded: type), UInt8(truncatingIfNeeded: type >> 8)])
    }

    @Test func otherAttributesEnterNotAtAll() {
        // Given a characteristic value, a vendor descriptor and a Valid Range descriptor (0x2906)
        let table: [GATTDatabaseHash.Attribute] = [
            .init(handle: ATTHandle(0x0001), type: BluetoothUUID(0x2A19), value: [0x64]),
            .init(handle: ATTHandle(0x0002), type: BluetoothUUID(value: 0xF000_AA01_0451_4000_B000_0000_0000_0000)),
            .init(handle: ATTHandle(0x0003), type: BluetoothUUID(0x2906), value: [0x00, 0x64]),
        ]

        // Then nothing of them is hashed
        #expect(GATTDatabaseHash.message(over: table).isEmpty)
    }

    @Test func aHashTakesSixteenBytesOnly() throws {
        // Given 16 bytes read from a Database Hash characteristic
        let hash = try GATTDatabaseHash(bytes: bytes("F1CA2D48ECF58BAC8A8830BBB9FBA990"))

        // Then it equals the computed hash; 15 bytes are refused
        #expect(hash == GATTDatabaseHash(attributes: Self.sampleDatabase))
        let error = #expect(throws: AirlinkError.self) { try GATTDatabaseHash(bytes: [UInt8](repeating: 0, count: 15)) }
        #expect(error?.code == .invalidArgument)
    }

    @Test func aLongTypeEntersAsSixteenBytes() {
        // Given a vendor service (128-bit UUID) declared at 0x0001 and a vendor characteristic's declaration
        let vendor = BluetoothUUID(value: 0xF000_AA00_0451_4000_B000_0000_0000_0000)
        let table: [GATTDatabaseHash.Attribute] = [
            .init(handle: ATTHandle(0x0001), type: .primaryServiceDeclaration, value: vendor.littleEndianBytes),
            .init(handle: ATTHandle(0x0002), type: vendor, value: [0x01]),
        ]

        // Then the service declaration enters as handle, 2-byte type, 16-byte value; the value attribute not at all
        #expect(GATTDatabaseHash.message(over: table) == [0x01, 0x00, 0x00, 0x28] + vendor.littleEndianBytes)
    }
}

extension GATTDatabaseHashTests {
    /// Vol 3, Part G, Appendix B's sample database: Generic Access, Generic Attribute (Service Changed, Client
    /// Supported Features, Database Hash), Glucose including a secondary Battery service, and Battery.
    static let sampleDatabase: [GATTDatabaseHash.Attribute] = [
        attribute(0x0001, 0x2800, "0018"),  // Generic Access
        attribute(0x0002, 0x2803, "0A0300002A"),  // Device Name, read|write
        attribute(0x0003, 0x2A00, "4169726C696E6B"),  // "Airlink"
        attribute(0x0004, 0x2803, "020500012A"),  // Appearance, read
        attribute(0x0005, 0x2A01, "0000"),
        attribute(0x0006, 0x2800, "0118"),  // Generic Attribute
        attribute(0x0007, 0x2803, "200800052A"),  // Service Changed, indicate
        attribute(0x0008, 0x2A05, ""),
        attribute(0x0009, 0x2902, "0000"),
        attribute(0x000A, 0x2803, "0A0B00292B"),  // Client Supported Features, read|write
        attribute(0x000B, 0x2B29, "00"),
        attribute(0x000C, 0x2803, "020D002A2B"),  // Database Hash, read
        attribute(0x000D, 0x2B2A, "F1CA2D48ECF58BAC8A8830BBB9FBA990"),
        attribute(0x000E, 0x2800, "0818"),  // Glucose
        attribute(0x000F, 0x2802, "140016000F18"),  // includes Battery, 0x0014 to 0x0016
        attribute(0x0010, 0x2803, "A21100182A"),  // Glucose Measurement, read|indicate|extended properties
        attribute(0x0011, 0x2A18, ""),
        attribute(0x0012, 0x2902, "0000"),
        attribute(0x0013, 0x2900, "0000"),
        attribute(0x0014, 0x2801, "0F18"),  // Battery, secondary
        attribute(0x0015, 0x2803, "021600192A"),  // Battery Level, read
        attribute(0x0016, 0x2A19, "64"),
    ]

    /// Appendix B's message, blocks M0 to M6 (111 bytes).
    static let sampleMessage = bytes(
        "010000280018020003280A0300002A04000328020500012A0600002801180700"
            + "0328200800052A090002290A0003280A0B00292B0C000328020D002A2B0E0000"
            + "2808180F000228140016000F1810000328A21100182A12000229130000290000"
            + "140001280F1815000328021600192A")

    private static func attribute(_ handle: UInt16, _ type: UInt16, _ value: String) -> GATTDatabaseHash.Attribute {
        GATTDatabaseHash.Attribute(handle: ATTHandle(handle), type: BluetoothUUID(type), value: bytes(value))
    }
}

/// The bytes of a string of hexadecimal digit pairs.
private func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex)
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16) ?? 0 }
}
