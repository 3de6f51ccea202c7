import AirlinkCore
import Testing

@testable import AirlinkHCI

@Suite("HCI codecs")
struct HCICodecTests {
    @Test("an H4 stream cut anywhere gives the same packets")
    func streamCutAnywhere() throws {
        // Given a command and an ACL packet, as one H4 stream
        let command = HCIPacket.command(HCICommand(.leSetScanEnable, [0x01, 0x00]))
        let acl = HCIPacket.acl(HCIACLPacket(handle: 0x40, data: [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00]))
        let stream = command.h4 + acl.h4
        for cut in 0...stream.count {
            // When it arrives in two pieces cut at `cut`
            var decoder = H4StreamDecoder()
            var packets: [HCIPacket] = []
            decoder.append(stream[..<cut])
            while let packet = try decoder.next() { packets.append(packet) }
            decoder.append(stream[cut...])
            while let packet = try decoder.next() { packets.append(packet) }
            // Then both packets come out whole, in order
            #expect(packets == [command, acl])
        }
    }

    @Test("a bad indicator is a typed error, and the stream stays failed")
    func badIndicator() {
        // Given a stream starting with SCO data, which this controller does not take
        var decoder = H4StreamDecoder()
        decoder.append([0x03, 0x00, 0x00, 0x00])
        // When it is decoded, then it fails with malformedData, twice
        #expect(throws: AirlinkError.self) { _ = try decoder.next() }
        #expect(throws: AirlinkError.self) { _ = try decoder.next() }
    }

    @Test("truncated and inconsistent packets are typed errors, never traps")
    func untrustedInput() {
        // Given packets whose lengths disagree with their bytes, a reserved flag, a handle out of range
        let bad: [[UInt8]] = [
            [], [0x01], [0x01, 0x03, 0x0C], [0x01, 0x03, 0x0C, 0x02, 0x00],
            [0x02, 0x40, 0x00, 0x05, 0x00, 0x01], [0x02, 0x40, 0x30, 0x00, 0x00],
            [0x02, 0xFF, 0x0F, 0x00, 0x00], [0x02, 0x40, 0x60, 0x00, 0x00], [0x04, 0x0E], [0x05, 0x00],
        ]
        for bytes in bad {
            // When each is decoded, then it is refused with malformedData
            #expect(throws: AirlinkError.self) { _ = try HCIPacket(h4: bytes) }
        }
    }

    @Test("L2CAP frames reassemble from ACL fragments and fragment again")
    func l2capReassembly() throws {
        // Given a 300-byte ATT frame cut into the controller's 251-byte ACL packets
        let frame = L2CAPFrame(channel: L2CAPFrame.attChannel, payload: [0x52] + [UInt8](repeating: 7, count: 299))
        let fragments = HCIACLPacket.fragments(of: frame.encoded, handle: 0x41, maximumLength: 251)
        #expect(fragments.count == 2)
        #expect(fragments.map(\.isFirstFragment) == [true, false])
        // When they are reassembled
        var reassembler = L2CAPReassembler()
        #expect(try reassembler.append(fragments[0]) == nil)
        // Then the frame comes back
        #expect(try reassembler.append(fragments[1]) == frame)
    }

    @Test("a continuation with no frame begun, and bytes past the length, are refused")
    func l2capErrors() {
        var reassembler = L2CAPReassembler()
        #expect(throws: AirlinkError.self) {
            _ = try reassembler.append(HCIACLPacket(handle: 1, isFirstFragment: false, data: [1]))
        }
        #expect(throws: AirlinkError.self) {
            _ = try reassembler.append(HCIACLPacket(handle: 1, data: [0x01, 0x00, 0x04, 0x00, 0x0A, 0xFF]))
        }
    }

    @Test("LE signalling requests get Command Reject")
    func refusals() {
        // Given a Connection Parameter Update Request (0x12) with identifier 7
        #expect(
            L2CAPRefusals.signalling([0x12, 0x07, 0x08, 0x00] + [UInt8](repeating: 0, count: 8))
                == [0x01, 0x07, 0x02, 0x00, 0x00, 0x00])
        // A response needs no answer
        #expect(L2CAPRefusals.signalling([0x13, 0x07, 0x02, 0x00, 0x00, 0x00]) == nil)
    }
}
