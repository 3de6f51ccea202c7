import AirlinkCore
import Testing

@testable import AirlinkSimulation

@Suite struct ATTPDUTests {
    static let vendor = BluetoothUUID(value: 0x6E40_0001_B5A3_F393_E0A9_E50E_24DC_CA9E)
    static let every: [ATTPDU] = [
        .errorResponse(request: .readRequest, handle: ATTHandle(3), error: .readNotPermitted),
        .exchangeMTURequest(clientMTU: 517),
        .exchangeMTUResponse(serverMTU: 247),
        .findInformationRequest(start: ATTHandle(1), end: .max),
        .findInformationResponse([.init(handle: ATTHandle(1), type: .primaryServiceDeclaration)]),
        .findInformationResponse([.init(handle: ATTHandle(9), type: vendor)]),
        .findByTypeValueRequest(start: .min, end: .max, type: 0x2800, value: [0x0F, 0x18]),
        .findByTypeValueResponse([ATTHandle(21)...ATTHandle(24), ATTHandle(30)...ATTHandle(30)]),
        .readByTypeRequest(start: .min, end: .max, type: .characteristicDeclaration),
        .readByTypeRequest(start: .min, end: .max, type: vendor),
        .readByTypeResponse([
            .init(handle: ATTHandle(2), value: [2, 3, 0, 0, 0x2A]),
            .init(handle: ATTHandle(4), value: [2, 5, 0, 1, 0x2A]),
        ]),
        .readRequest(handle: ATTHandle(3)),
        .readResponse([1, 2, 3]),
        .readBlobRequest(handle: ATTHandle(3), offset: 22),
        .readBlobResponse([]),
        .readByGroupTypeRequest(start: .min, end: .max, type: .primaryServiceDeclaration),
        .readByGroupTypeResponse([.init(handle: ATTHandle(1), endGroupHandle: ATTHandle(5), value: [0, 0x18])]),
        .writeRequest(handle: ATTHandle(16), value: [0xD0, 0x07]),
        .writeResponse,
        .writeCommand(handle: ATTHandle(16), value: []),
        .prepareWriteRequest(handle: ATTHandle(16), offset: 18, value: [1, 2]),
        .prepareWriteResponse(handle: ATTHandle(16), offset: 18, value: [1, 2]),
        .executeWriteRequest(commit: true),
        .executeWriteRequest(commit: false),
        .executeWriteResponse,
        .handleValueNotification(handle: ATTHandle(13), value: [0x2C, 0x08]),
        .handleValueIndication(handle: ATTHandle(8), value: [10, 0, 24, 0]),
        .handleValueConfirmation,
    ]

    @Test(arguments: every)
    func roundTripsThroughItsBytes(pdu: ATTPDU) throws {
        // Given a PDU encoded to bytes
        let bytes = pdu.encoded

        // When the bytes are decoded
        let decoded = try ATTPDU(decoding: bytes)

        // Then the same PDU comes back, its opcode first on air
        #expect(decoded == pdu)
        #expect(bytes.first == pdu.opcode.rawValue)
    }

    @Test func encodesFieldsLittleEndianAfterTheOpcode() {
        #expect(ATTPDU.readRequest(handle: ATTHandle(0x0103)).encoded == [0x0A, 0x03, 0x01])
        #expect(ATTPDU.exchangeMTURequest(clientMTU: 517).encoded == [0x02, 0x05, 0x02])
        #expect(
            ATTPDU.errorResponse(request: .writeRequest, handle: ATTHandle(0x10), error: .writeNotPermitted).encoded
                == [0x01, 0x12, 0x10, 0x00, 0x03])
        #expect(ATTPDU.writeCommand(handle: ATTHandle(0x10), value: [9]).encoded == [0x52, 0x10, 0x00, 9])
    }

    @Test(arguments: [
        ([UInt8](), "at offset 0: it is empty"),
        ([0x0F], "at offset 0: ATT 0x0F is not supported"),
        ([0x0A, 0x03], "ATT_READ_REQ is malformed at offset 1: attribute handle needs 2 bytes"),
        ([0x0A, 0x03, 0x00, 0xFF], "ATT_READ_REQ is malformed at offset 3: 1 unexpected trailing byte"),
        ([0x05, 0x03, 0x01, 0x00, 0x00, 0x28], "ATT_FIND_INFORMATION_RSP is malformed at offset 1: format"),
        ([0x18, 0x02], "ATT_EXECUTE_WRITE_REQ is malformed at offset 1: flags must be"),
        ([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x00], "ATT_READ_BY_TYPE_REQ is malformed at offset 5"),
        ([0x09, 0x04, 0x01, 0x00, 0xAA, 0xBB, 0x02], "ATT_READ_BY_TYPE_RSP is malformed at offset 6: handle"),
        ([0x07, 0x05, 0x00, 0x04, 0x00], "ATT_FIND_BY_TYPE_VALUE_RSP is malformed at offset 3: group end handle"),
    ])
    func malformedBytesNameTheOffset(bytes: [UInt8], message: String) {
        // When malformed bytes are decoded
        // Then the error is malformedData, naming the PDU and the offset of the bad byte
        #expect {
            try ATTPDU(decoding: bytes)
        } throws: { error in
            guard let error = error as? AirlinkError else { return false }
            return error.code == .malformedData && error.message.contains(message)
        }
    }

    @Test func describesEachPDUOnOneLineForTraces() {
        #expect(ATTPDU.readRequest(handle: ATTHandle(3)).description == "ATT_READ_REQ handle=0x0003")
        #expect(ATTPDU.readResponse(Array(repeating: 0, count: 20)).description == "ATT_READ_RSP 20 bytes")
        #expect(
            ATTPDU.errorResponse(request: .readRequest, handle: ATTHandle(3), error: .readNotPermitted).description
                == "ATT_ERROR_RSP READ_REQ 0x0003 Read Not Permitted (0x02)")
        #expect(ATTPDU.executeWriteRequest(commit: false).description == "ATT_EXECUTE_WRITE_REQ cancel")
        #expect(ATTPDU.handleValueConfirmation.description == "ATT_HANDLE_VALUE_CFM")
    }
}
