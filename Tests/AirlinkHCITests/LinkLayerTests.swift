import AirlinkCore
import Testing

@testable import AirlinkHCI

@Suite("HCI data length and PHY")
struct LinkLayerTests: ControllerTesting {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// A controller whose host unmasked every event (but LE Enhanced Connection Complete unless `enhanced`),
    /// with a link to the thermostat: the controller, the link's handle and its connection complete event.
    func connected(enhanced: Bool = true) -> (HCIController, UInt16, HCIEvent) {
        var controller = HCIController(address: BDAddress(value: 1))
        _ = controller.handle(command(.setEventMask, [UInt8](repeating: 0xFF, count: 8)))
        _ = controller.handle(command(.leSetEventMask, [0xFF, enhanced ? 0xFF : 0xFD, 0, 0, 0, 0, 0, 0]))
        _ = controller.handle(command(.leCreateConnection, HCICommand.createConnectionParameters(to: thermostat)))
        let complete = events(controller.handle(.connected(thermostat)))[0]
        return (controller, controller.connectionHandles[0], complete)
    }

    @Test("a host that unmasks LE Enhanced Connection Complete hears it instead of LE Connection Complete")
    func enhancedConnectionComplete() {
        // Given a host with every LE event on
        let (_, handle, complete) = connected()
        // Then the link comes up as subevent 0x0A: the legacy fields with two empty private addresses inside
        #expect(complete.parameters.count == 31)
        #expect(complete.parameters[0] == 0x0A)
        #expect(complete.parameters[1] == 0x00)
        #expect(UInt16(complete.parameters[2]) | UInt16(complete.parameters[3]) << 8 == handle)
        #expect(Array(complete.parameters[6..<12]) == thermostat.hciAddress)
        #expect(complete.parameters[24] == 24)  // the interval asked for
        // And with only the legacy event on, the legacy one
        #expect(connected(enhanced: false).2.parameters[0] == 0x01)
    }

    @Test("LE Set Data Length answers, then LE Data Length Change reports the new length once")
    func dataLength() {
        var (controller, handle, _) = connected()
        let request: [UInt8] = [UInt8(handle & 0xFF), UInt8(handle >> 8), 251, 0, 0x48, 0x08]
        // When the host asks for 251 octets, 2120 µs
        let answer = events(controller.handle(command(.leSetDataLength, request)))
        // Then Command Complete (status, handle), and the change both ways
        #expect(
            answer == [
                .commandComplete(.leSetDataLength, [0x00] + request.prefix(2)),
                .leDataLengthChange(handle: handle, txOctets: 251, txTime: 2_120, rxOctets: 251, rxTime: 2_120),
            ])
        // And asking again for the same changes nothing, so no event
        #expect(events(controller.handle(command(.leSetDataLength, request))).count == 1)
        // And a length out of range is refused with 0x12
        let tooLong = events(controller.handle(command(.leSetDataLength, request.prefix(2) + [252, 0, 0x48, 0x08])))
        #expect(tooLong == [.commandComplete(.leSetDataLength, [0x12] + request.prefix(2))])
    }

    @Test("the suggested default and maximum data lengths read back as written and as supported")
    func suggestedDefault() {
        var controller = HCIController(address: BDAddress(value: 1))
        let read = events(controller.handle(command(.leReadSuggestedDefaultDataLength)))
        #expect(read == [.commandComplete(.leReadSuggestedDefaultDataLength, [0, 27, 0, 0x48, 0x01])])
        _ = controller.handle(command(.leWriteSuggestedDefaultDataLength, [200, 0, 0x48, 0x08]))
        let again = events(controller.handle(command(.leReadSuggestedDefaultDataLength)))
        #expect(again == [.commandComplete(.leReadSuggestedDefaultDataLength, [0, 200, 0, 0x48, 0x08])])
        let maximum = events(controller.handle(command(.leReadMaximumDataLength)))
        #expect(maximum == [.commandComplete(.leReadMaximumDataLength, [0, 251, 0, 0x48, 0x08, 251, 0, 0x48, 0x08])])
    }

    @Test("LE Set PHY moves the link to LE 2M, reported by LE PHY Update Complete and LE Read PHY")
    func phy() {
        var (controller, handle, _) = connected()
        let handleBytes = [UInt8(handle & 0xFF), UInt8(handle >> 8)]
        #expect(
            events(controller.handle(command(.leReadPHY, handleBytes))) == [
                .commandComplete(.leReadPHY, [0] + handleBytes + [1, 1])
            ])
        // When the host prefers LE 2M both ways
        let answer = events(controller.handle(command(.leSetPHY, handleBytes + [0x00, 0x02, 0x02, 0, 0])))
        // Then Command Status, then the update to LE 2M
        #expect(
            answer == [
                .commandStatus(0x00, .leSetPHY), .lePHYUpdateComplete(status: 0, handle: handle, tx: 2, rx: 2),
            ])
        // And the bytes on the wire are the specification's, written out here rather than by the builders: Command
        // Status (Vol 4, Part E, 7.7.15: status, one command allowed, opcode 0x2032), then the LE Meta event with
        // LE PHY Update Complete (7.7.65.12: subevent 0x0C, status, handle, TX PHY, RX PHY; 2 is LE 2M)
        #expect(
            answer.map { HCIPacket.event($0).h4 } == [
                [0x04, 0x0F, 0x04, 0x00, 0x01, 0x32, 0x20],
                [0x04, 0x3E, 0x06, 0x0C, 0x00] + handleBytes + [0x02, 0x02],
            ])
        #expect(
            events(controller.handle(command(.leReadPHY, handleBytes))) == [
                .commandComplete(.leReadPHY, [0] + handleBytes + [2, 2])
            ])
        // And an unknown handle is refused with 0x02
        #expect(
            events(controller.handle(command(.leSetPHY, [0x00, 0x0F, 0, 2, 2, 0, 0]))) == [
                .commandStatus(0x02, .leSetPHY)
            ])
    }
}
