import AirlinkCore
import Testing

@testable import AirlinkSimulation

/// A link carries a PDU with an exact length as it is, without encoding or decoding it: that is right
/// only if its bytes decode back to the same PDU and are as long as it says.
@Suite struct ATTPDUExactLengthTests {
    static let carried: [ATTPDU] = [
        .readRequest(handle: ATTHandle(0x0003)),
        .readResponse([]),
        .readResponse([0x01, 0x02, 0x03]),
        .readBlobRequest(handle: ATTHandle(0x0010), offset: 22),
        .readBlobResponse(Array(repeating: 0xAB, count: 22)),
        .writeRequest(handle: ATTHandle(0x0012), value: [0x66, 0x08]),
        .writeResponse,
        .writeCommand(handle: ATTHandle(0x0012), value: []),
        .handleValueNotification(handle: ATTHandle(0xFFFF), value: [0x00]),
        .handleValueIndication(handle: ATTHandle(0x0001), value: Array(0..<200)),
        .handleValueConfirmation,
        .errorResponse(request: .readRequest, handle: ATTHandle(0x0003), error: .readNotPermitted),
        .errorResponse(request: ATTOpcode(rawValue: 0x7F), handle: ATTHandle(0), error: ATTError(0x80)),
        .exchangeMTURequest(clientMTU: 517),
        .exchangeMTUResponse(serverMTU: 23),
        .executeWriteResponse,
    ]

    @Test(arguments: carried)
    func aCarriedPDUDecodesFromItsBytesToItselfAtItsLength(_ pdu: ATTPDU) throws {
        // Given a PDU a link carries undecoded
        let count = try #require(pdu.exactEncodedCount)

        // When it is encoded as a sender would
        let bytes = pdu.encoded

        // Then its length is the one it states, and the bytes decode back to it
        #expect(bytes.count == count)
        #expect(try ATTPDU(decoding: bytes) == pdu)
    }

    @Test func discoveryListsCrossAsBytes() {
        // Given responses whose encoding assumes entries of one length
        let lists: [ATTPDU] = [
            .findInformationResponse([.init(handle: ATTHandle(1), type: .batteryLevel)]),
            .readByTypeResponse([.init(handle: ATTHandle(2), value: [0x01])]),
            .readByGroupTypeResponse([.init(handle: ATTHandle(1), endGroupHandle: ATTHandle(5), value: [0x0F, 0x18])]),
            .findByTypeValueResponse([ATTHandle(1)...ATTHandle(5)]),
        ]

        // Then none claims an exact length: a link sends their bytes and decodes them on arrival
        #expect(lists.allSatisfy { $0.exactEncodedCount == nil })
    }
}
