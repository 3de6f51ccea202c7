import Testing

@testable import AirlinkCore

@Suite struct GATTValueFormatTests {
    @Test(arguments: [
        (GATTValueFormat.uint8, "255", [0xFF] as [UInt8]),
        (.uint16, "2500", [0xC4, 0x09]),
        (.uint32, "4294967295", [0xFF, 0xFF, 0xFF, 0xFF]),
        (.int8, "-128", [0x80]),
        (.int16, "-2500", [0x3C, 0xF6]),
        (.int32, "-70000", [0x90, 0xEE, 0xFE, 0xFF]),
        (.utf8, " héllo ", [0x20, 0x68, 0xC3, 0xA9, 0x6C, 0x6C, 0x6F, 0x20]),
        (.bool, "true", [1]),
        (.bool, "OFF", [0]),
        (.bool, "yes", [1]),
        (.hex, "0x0a0B", [0x0A, 0x0B]),
        (.hex, "0a 0b:0C", [0x0A, 0x0B, 0x0C]),
        (.hex, "0x", []),
        (.hex, "", []),
    ])
    func textBecomesLittleEndianBytes(format: GATTValueFormat, text: String, bytes: [UInt8]) throws {
        // Given a value written in a format
        // When it is parsed
        let parsed = try format.bytes(of: text)

        // Then it is the bytes GATT carries
        #expect(parsed == bytes)
    }

    @Test(arguments: [
        (GATTValueFormat.uint8, "87"), (.uint16, "65535"), (.int16, "-2500"), (.int32, "-70000"), (.utf8, "héllo"),
        (.bool, "false"), (.hex, "0x0a0b"),
    ])
    func valuesReadBackAsWritten(format: GATTValueFormat, text: String) throws {
        // Given a value in its canonical spelling
        // When it is turned into bytes and back
        let bytes = try format.bytes(of: text)

        // Then it reads back as written
        #expect(try format.text(of: bytes) == text)
    }

    @Test(arguments: [
        (GATTValueFormat.uint8, "300", "\"300\" is not a uint8: write a whole number 0...255"),
        (.int8, "-129", "a whole number -128...127"),
        (.uint16, "twelve", "\"twelve\" is not a uint16"),
        (.hex, "0xABC", "an odd number of hex digits"),
        (.hex, "0a0g", "'g' at offset 3 is not a hex digit"),
        (.hex, "0x0z", "'z' at offset 3 is not a hex digit"),
        (.bool, "maybe", "\"maybe\" is not a bool: write true or false"),
    ])
    func badTextSaysWhatWasWrong(format: GATTValueFormat, text: String, message: String) {
        // Given text that is not a value of the format
        // When it is parsed
        // Then the error is an invalid argument naming the text and what to write
        #expect {
            try format.bytes(of: text)
        } throws: { error in
            let error = error as? AirlinkError
            return error?.code == .invalidArgument && error?.message.contains(message) == true
        }
    }

    @Test func bytesThatDoNotFitTheFormatAreMalformed() {
        // Given bytes of the wrong width or value
        // When they are printed in a format
        // Then the error is malformed data
        for (format, bytes) in [(GATTValueFormat.uint16, [1] as [UInt8]), (.bool, [2]), (.utf8, [0xFF])] {
            #expect(throws: AirlinkError.self) { try format.text(of: bytes) }
        }
    }

    @Test func hexTextIsLowerCaseWithOrWithoutPrefix() {
        #expect(GATTValueFormat.hexText([0x0A, 0xFF]) == "0x0aff")
        #expect(GATTValueFormat.hexText([0x0A, 0xFF], prefixed: false) == "0aff")
        #expect(GATTValueFormat.hexText([]) == "0x")
    }
}
