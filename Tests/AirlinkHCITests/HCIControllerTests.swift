import AirlinkCore
import Testing

@testable import AirlinkHCI

@Suite("HCI controller")
struct HCIControllerTests: ControllerTesting {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// LE Create Connection to `device`, interval 24 (30 ms), latency 0, timeout 42 (420 ms).
    func createConnection(_ device: DeviceID) -> HCIController.Input {
        command(.leCreateConnection, HCICommand.createConnectionParameters(to: device))
    }

    /// A controller whose host enabled every event, LE Meta included (the default mask leaves it off).
    func controller() -> HCIController {
        var controller = HCIController(address: BDAddress(value: 1))
        _ = controller.handle(command(.setEventMask, [UInt8](repeating: 0xFF, count: 8)))
        return controller
    }

    func connected(_ controller: inout HCIController) -> UInt16 {
        _ = controller.handle(createConnection(thermostat))
        let complete = events(controller.handle(.connected(thermostat)))[0]
        return UInt16(complete.parameters[2]) | UInt16(complete.parameters[3]) << 8
    }

    @Test("an unknown command gets Command Status 0x01, never silence")
    func unknownCommand() {
        var controller = HCIController(address: BDAddress(value: 1))
        // When the host sends Write Local Name (a BR/EDR command this controller lacks)
        let answer = events(controller.handle(command(HCIOpcode(ogf: 0x03, ocf: 0x0013), [0x41])))
        // Then it hears Command Status, Unknown HCI Command, for that opcode
        #expect(answer == [.commandStatus(0x01, HCIOpcode(ogf: 0x03, ocf: 0x0013))])
    }

    @Test("Read Local Supported Commands lists exactly the commands answered")
    func supportedCommands() {
        var controller = HCIController(address: BDAddress(value: 1))
        let answer = events(controller.handle(command(.readLocalSupportedCommands)))[0]
        // Command Complete: num packets, opcode, status, 64 octets
        #expect(answer.parameters.count == 3 + 1 + 64)
        let octets = Array(answer.parameters[4...])
        #expect(octets[26] & 0x30 == 0x30)  // LE Create Connection and Cancel
        #expect(octets[5] & 0xC0 == 0xC0)  // Set Event Mask, Reset
    }

    @Test("a command with the wrong parameter length is refused with 0x12")
    func wrongLength() {
        var controller = HCIController(address: BDAddress(value: 1))
        #expect(
            events(controller.handle(command(.leSetScanEnable, [0x01]))) == [.commandComplete(.leSetScanEnable, [0x12])]
        )
        #expect(
            events(controller.handle(command(.leCreateConnection, [0x01]))) == [
                .commandStatus(0x12, .leCreateConnection)
            ])
    }

    @Test("advertisements are reported only while scanning, with the scan response after")
    func advertisingReports() {
        var controller = controller()
        let heard = HCIController.Input.advertisement(
            thermostat, data: [0x02, 0x01, 0x06], scanResponse: [0x03, 0x09, 0x41, 0x42], isConnectable: true, rssi: -60
        )
        #expect(events(controller.handle(heard)).isEmpty)
        // An active scan (a passive one sends no scan request, so it hears no scan response)
        _ = controller.handle(command(.leSetScanParameters, [0x01, 0x10, 0x00, 0x10, 0x00, 0x00, 0x00]))
        _ = controller.handle(command(.leSetScanEnable, [0x01, 0x00]))
        let reports = events(controller.handle(heard))
        #expect(
            reports == [
                .leAdvertisingReport(.connectable, from: thermostat, data: [0x02, 0x01, 0x06], rssi: -60),
                .leAdvertisingReport(.scanResponse, from: thermostat, data: [0x03, 0x09, 0x41, 0x42], rssi: -60),
            ])
    }

    @Test("a link loss reaches the host as Disconnection Complete with the radio's reason")
    func linkLoss() {
        var controller = controller()
        let handle = connected(&controller)
        // When the link drops with a supervision timeout
        let answer = events(controller.handle(.disconnected(thermostat, reason: 0x08)))
        // Then the host hears 0x08 for that handle, and the handle is gone
        #expect(answer == [.disconnectionComplete(handle: handle, reason: 0x08)])
        #expect(controller.connectionHandles.isEmpty)
    }

    @Test("ATT on channel 4 goes to the peripheral, and every ACL packet is counted back")
    func attRouting() {
        var controller = controller()
        let handle = connected(&controller)
        let read = L2CAPFrame(channel: 0x0004, payload: [0x0A, 0x03, 0x00])
        let actions = controller.handle(.host(.acl(HCIACLPacket(handle: handle, data: read.encoded))))
        #expect(
            actions == [
                .sendATT(thermostat, [0x0A, 0x03, 0x00]),
                .send(.event(.numberOfCompletedPackets(handle: handle, count: 1))),
            ])
        // And the peripheral's answer comes back as ACL on the same handle
        let back = controller.handle(.att(thermostat, [0x0B, 0x34, 0x08]))
        #expect(back == [.send(.acl(HCIACLPacket(handle: handle, data: [3, 0, 4, 0, 0x0B, 0x34, 0x08])))])
    }

    @Test("Create Connection Cancel ends the attempt with LE Connection Complete 0x02")
    func cancel() {
        var controller = controller()
        _ = controller.handle(createConnection(thermostat))
        let cancel = controller.handle(command(.leCreateConnectionCancel))
        #expect(cancel.contains(.cancelConnect(thermostat)))
        let complete = events(controller.handle(.connectionFailed(thermostat, status: 0x3E)))
        #expect(complete.count == 1)
        #expect(complete.first?.parameters[1] == 0x02)
    }

    @Test("LE events stay off until Set Event Mask turns LE Meta on (the specification's default mask)")
    func defaultMask() {
        var controller = HCIController(address: BDAddress(value: 1))
        _ = controller.handle(createConnection(thermostat))
        #expect(events(controller.handle(.connected(thermostat))).isEmpty)
        #expect(controller.connectionHandles.count == 1)
    }

    @Test("Disconnect of an unknown handle is refused with 0x02")
    func disconnectUnknown() {
        var controller = HCIController(address: BDAddress(value: 1))
        #expect(
            events(controller.handle(command(.disconnect, [0x40, 0x00, 0x13]))) == [.commandStatus(0x02, .disconnect)])
    }

    @Test("Read RSSI answers with the link's RSSI the radio measures, not the last advertisement's")
    func readRSSI() {
        // Given a link to the thermostat, whose advertisement was heard at -60 dBm
        var controller = controller()
        _ = controller.handle(command(.leSetScanEnable, [0x01, 0x00]))
        _ = controller.handle(
            .advertisement(thermostat, data: [0x02, 0x01, 0x06], scanResponse: nil, isConnectable: true, rssi: -60))
        let handle = connected(&controller)
        let handleBytes = [UInt8(handle & 0xFF), UInt8(handle >> 8)]
        // When the host reads the RSSI
        let asked = controller.handle(command(.readRSSI, handleBytes))
        // Then the radio is asked to measure the link, and the host hears what it measured
        #expect(asked == [.readRSSI(thermostat)])
        let answer = events(controller.handle(.linkRSSI(thermostat, -42)))
        #expect(answer == [.commandComplete(.readRSSI, [0x00] + handleBytes + [UInt8(bitPattern: -42)])])
        // And a link gone before the measurement is answered 0x02 rather than never
        _ = controller.handle(command(.readRSSI, handleBytes))
        _ = controller.handle(.disconnected(thermostat, reason: 0x08))
        let gone = events(controller.handle(.linkRSSI(thermostat, nil)))
        #expect(gone == [.commandComplete(.readRSSI, [0x02] + handleBytes + [0x7F])])
    }

    @Test("a link that drops before its coming up is handled reaches the host as up, then down with the reason")
    func droppedWhileConnecting() {
        // Given a host connecting to the thermostat
        var controller = controller()
        _ = controller.handle(createConnection(thermostat))
        // When the radio's report of the link loss overtakes the one of the link coming up
        #expect(events(controller.handle(.disconnected(thermostat, reason: 0x14))).isEmpty)
        let answer = events(controller.handle(.connected(thermostat)))
        // Then the host hears LE Connection Complete, then Disconnection Complete 0x14, and no handle stays
        #expect(answer.count == 2)
        #expect(answer.last == .disconnectionComplete(handle: 0x0040, reason: 0x14))
        #expect(controller.connectionHandles.isEmpty)
    }
}
