import Foundation
import Testing

@testable import AirlinkCore

@Suite struct AdvertisementTests {
    /// Flags, a complete list of two 16-bit UUIDs and a complete local name, written out from
    /// Core Spec Vol 3, Part C, 11 and CSS Part A, 1.1-1.3.
    static let handWritten: [UInt8] = [
        0x02, 0x01, 0x06,  // Flags: LE General Discoverable, BR/EDR Not Supported
        0x05, 0x03, 0x0F, 0x18, 0x0A, 0x18,  // Complete List of 16-bit Service UUIDs: 180F, 180A
        0x08, 0x09, 0x41, 0x69, 0x72, 0x6C, 0x69, 0x6E, 0x6B,  // Complete Local Name: "Airlink"
    ]

    @Test func decodesAHandWrittenPayload() throws {
        // When the hand-written payload is decoded
        let ad = try Advertisement(decoding: Self.handWritten, isConnectable: false, rssi: -60)

        // Then each field is read, and the receive-side fields are the ones given
        #expect(ad.flags == .generalDiscoverableLEOnly)
        #expect(ad.serviceUUIDs == [.battery, .deviceInformation])
        #expect(ad.hasMoreServiceUUIDs == false)
        #expect(ad.localName == .complete("Airlink"))
        #expect(ad.name == "Airlink")
        #expect(ad.isConnectable == false)
        #expect(ad.rssi == -60)
        #expect(ad.otherStructures.isEmpty)
    }

    @Test func encodesToTheHandWrittenPayload() throws {
        // Given the same content built in code
        let ad = Advertisement(
            flags: [.leGeneralDiscoverable, .brEDRNotSupported], localName: "Airlink",
            serviceUUIDs: [.battery, .deviceInformation])

        // When it is encoded
        let bytes = try ad.advertisingData()

        // Then the bytes are the hand-written ones, and they fit a legacy PDU
        #expect(bytes == Self.handWritten)
        #expect(ad.encodedByteCount == 18)
        #expect(ad.fitsLegacyAdvertisingPDU)
    }

    @Test func decodesAnIBeacon() throws {
        // Given an iBeacon: Flags, then Apple's manufacturer data (0x004C) of type 0x02, length 0x15
        let proximityUUID: [UInt8] = [
            0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0,
        ]
        let payload: [UInt8] = [0x02, 0x15] + proximityUUID + [0x00, 0x01, 0x00, 0x02, 0xC5]
        let bytes: [UInt8] = [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00] + payload

        // When it is decoded
        let ad = try Advertisement(decoding: bytes)

        // Then the manufacturer data is Apple's, with the beacon payload intact, and it re-encodes exactly
        #expect(bytes.count == 30)
        #expect(ad.manufacturerData == [Advertisement.ManufacturerData(companyID: 0x004C, data: payload)])
        #expect(ad.manufacturerData(for: 0x004C) == payload)
        #expect(try ad.advertisingData() == bytes)
    }

    @Test func everyFieldRoundTrips() throws {
        // Given an advertisement that uses every modelled field, UUIDs of all three sizes, and two
        // manufacturer data entries
        let vendor = try BluetoothUUID(parsing: "68753A44-4D6F-1226-9C60-0050E4C00066")
        let ad = Advertisement(
            flags: [.leLimitedDiscoverable, .brEDRNotSupported], localName: .shortened("Therm"),
            serviceUUIDs: [.environmentalSensing, try BluetoothUUID(parsing: "F000AA00"), vendor],
            hasMoreServiceUUIDs: true,
            manufacturerData: [.init(companyID: 0x0059, data: [1, 2]), .init(companyID: 0xFFFF, data: [])],
            serviceData: [.init(uuid: .battery, data: [87]), .init(uuid: vendor, data: [0xAA])],
            txPowerLevel: -8, appearance: .genericThermometer,
            otherStructures: [ADStructure(type: ADType(0x2A), data: [0x01])])

        // When it is encoded and decoded
        let bytes = try ad.advertisingData()
        let decoded = try Advertisement(decoding: bytes)

        // Then nothing is lost, and the encoding length is the one announced
        #expect(decoded == ad)
        #expect(bytes.count == ad.encodedByteCount)
        #expect(decoded.serviceData(for: .battery) == [87])
        #expect(!ad.fitsLegacyAdvertisingPDU)
    }

    @Test func anEmptyIncompleteUUIDListRoundTrips() throws {
        // Given data with an empty Incomplete List of 16-bit Service UUIDs: more UUIDs exist, none listed
        // (found by Scripts/fuzz advertisement: the encoder dropped the list, and with it the flag)
        let bytes: [UInt8] = [0x02, 0x01, 0x06, 0x01, 0x02]
        let ad = try Advertisement(decoding: bytes)
        #expect(ad.hasMoreServiceUUIDs && ad.serviceUUIDs.isEmpty)

        // When it is encoded and decoded again
        let encoded = try ad.advertisingData()

        // Then the empty incomplete list is written, so the flag survives
        #expect(encoded == bytes)
        #expect(try Advertisement(decoding: encoded) == ad)
    }

    @Test func structuresComeInTheirFixedOrder() throws {
        // Given every kind of field
        let ad = Advertisement(
            flags: .generalDiscoverableLEOnly, localName: "A", serviceUUIDs: [.battery],
            manufacturerData: [.init(companyID: 1, data: [])], serviceData: [.init(uuid: .battery, data: [])],
            txPowerLevel: 0, appearance: .unknown, otherStructures: [ADStructure(type: ADType(0x2A), data: [])])

        // Then the structures follow the documented order
        #expect(
            ad.structures.map(\.type) == [
                .flags, .complete16BitServiceUUIDs, .completeLocalName, .txPowerLevel, .appearance,
                .serviceData16BitUUID, .manufacturerSpecificData, ADType(0x2A),
            ])
    }

    @Test func serviceUUIDsGoInTheListOfTheirShortestForm() throws {
        // Given a SIG UUID written in its 128-bit form inside a 128-bit list
        let bytes: [UInt8] = [0x11, 0x07] + BluetoothUUID.battery.littleEndianBytes(count: 16)

        // When it is decoded and encoded again
        let ad = try Advertisement(decoding: bytes)

        // Then it is the Battery Service, and the canonical encoding uses the 16-bit list
        #expect(ad.serviceUUIDs == [.battery])
        #expect(try ad.advertisingData() == [0x03, 0x03, 0x0F, 0x18])
    }

    @Test func unknownStructuresAreKeptAndReEncoded() throws {
        // Given a Peripheral Connection Interval Range and an unassigned type 0xAB after the flags
        let bytes: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x12, 0x06, 0x00, 0x0C, 0x00, 0x03, 0xAB, 0x01, 0x02]

        // When it is decoded
        let ad = try Advertisement(decoding: bytes)

        // Then both are kept raw, in order, and encode back to the same bytes
        #expect(
            ad.otherStructures == [
                ADStructure(type: .peripheralConnectionIntervalRange, data: [0x06, 0x00, 0x0C, 0x00]),
                ADStructure(type: ADType(0xAB), data: [0x01, 0x02]),
            ])
        #expect(try ad.advertisingData() == bytes)
    }

    @Test func zeroLengthEndsTheDataAsPadding() throws {
        // Given flags, then a zero length byte followed by bytes that would be malformed
        let bytes: [UInt8] = [0x02, 0x01, 0x06, 0x00, 0xFF, 0x01]

        // When it is decoded
        let ad = try Advertisement(decoding: bytes)

        // Then parsing stops at the zero: only the flags are read
        #expect(ad == Advertisement(flags: .generalDiscoverableLEOnly))
    }

    @Test func emptyDataIsAnEmptyAdvertisement() throws {
        #expect(try Advertisement(decoding: []) == Advertisement())
        #expect(try Advertisement().advertisingData() == [])
    }

    @Test func incompleteListSetsHasMoreServiceUUIDs() throws {
        // Given an incomplete list of 16-bit UUIDs and an empty complete list of 128-bit UUIDs
        let bytes: [UInt8] = [0x03, 0x02, 0x0F, 0x18, 0x01, 0x07]

        // When it is decoded
        let ad = try Advertisement(decoding: bytes)

        // Then the UUID is read and the list is marked incomplete
        #expect(ad.serviceUUIDs == [.battery])
        #expect(ad.hasMoreServiceUUIDs)
    }

    @Test func completeNameIsNotReplacedByAShortenedOne() throws {
        // Given a complete name followed by a shortened one
        let bytes: [UInt8] = [0x03, 0x09, 0x41, 0x42, 0x02, 0x08, 0x41]

        // Then the complete name is kept
        #expect(try Advertisement(decoding: bytes).localName == .complete("AB"))
    }

    @Test func nonASCIINameRoundTripsAsUTF8() throws {
        let ad = Advertisement(localName: "Thermomètre 🌡")
        #expect(try Advertisement(decoding: ad.advertisingData()).localName == "Thermomètre 🌡")
    }

    @Test func emptyFlagsStructureMeansNoFlagsSet() throws {
        #expect(try Advertisement(decoding: [0x01, 0x01]).flags == [])
    }

    @Test func fitsLegacyPDUUpToThirtyOneBytes() {
        // Given names that make the data 31 and 32 bytes long (2 bytes of header each)
        let fits = Advertisement(localName: .init(String(repeating: "a", count: 29)))
        let overflows = Advertisement(localName: .init(String(repeating: "a", count: 30)))

        // Then only the first fits a legacy PDU
        #expect(fits.encodedByteCount == 31)
        #expect(fits.fitsLegacyAdvertisingPDU)
        #expect(overflows.encodedByteCount == 32)
        #expect(!overflows.fitsLegacyAdvertisingPDU)
    }

    @Test func structureLongerThanALengthByteCanSayIsRejected() {
        // Given a local name of 255 bytes
        let ad = Advertisement(localName: .init(String(repeating: "a", count: 255)))

        // When it is encoded
        // Then the error names the structure and its size
        #expect {
            try ad.advertisingData()
        } throws: { error in
            guard let error = error as? AirlinkError else { return false }
            return error.code == .invalidArgument && error.message.contains("Complete Local Name (0x09)")
                && error.message.contains("255 bytes")
        }
    }

    @Test func codesAsJSON() throws {
        // Given a decoded advertisement with receive-side fields
        let ad = try Advertisement(decoding: Self.handWritten, isConnectable: true, rssi: -71)

        // When it goes through JSON
        let decoded = try JSONDecoder().decode(Advertisement.self, from: JSONEncoder().encode(ad))

        // Then it comes back equal
        #expect(decoded == ad)
    }
}
