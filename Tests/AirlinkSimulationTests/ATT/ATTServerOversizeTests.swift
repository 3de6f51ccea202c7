import AirlinkCore
import Testing

@testable import AirlinkSimulation

/// A request longer than the ATT_MTU, which no valid client sends: found by the `att-server` fuzz target
/// (a Prepare Write Request of 28 bytes at ATT_MTU 23 was answered with a 28-byte Prepare Write Response).
@Suite struct ATTServerOversizeTests {
    @Test func aRequestOverTheMTUIsAnsweredWithInvalidPDUAndChangesNothing() throws {
        // Given the thermostat's server at the default ATT_MTU of 23
        var att = try Thermostat.server(mtu: 23)
        #expect(att.mtu == 23)

        // When the client sends a Prepare Write Request of 28 bytes (a 23-byte value at offset 0)
        let request: [UInt8] = [0x16, 0x09, 0x00, 0x00, 0x00] + Array(repeating: 0xAB, count: 23)
        let actions = att.handle(request)

        // Then the server answers Invalid PDU and queues nothing: no response over the MTU
        #expect(
            actions == [.send(.errorResponse(request: .prepareWriteRequest, handle: ATTHandle(0), error: .invalidPDU))])
        let execute = att.handle(.executeWriteRequest(commit: true))
        #expect(execute == [.send(.executeWriteResponse)])
    }

    @Test func aCommandOverTheMTUIsIgnored() throws {
        // Given the thermostat's server at the default ATT_MTU of 23
        var att = try Thermostat.server(mtu: 23)

        // When the client sends a Write Command of 26 bytes
        let command: [UInt8] = [0x52, 0x09, 0x00] + Array(repeating: 0xAB, count: 23)

        // Then nothing happens: commands get no answer, and this one is not applied
        #expect(att.handle(command).isEmpty)
    }
}
