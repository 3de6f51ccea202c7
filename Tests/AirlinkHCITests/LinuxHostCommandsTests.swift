import AirlinkCore
import Testing

@testable import AirlinkHCI

/// What the Linux kernel sends a controller (net/bluetooth/hci_sync.c: init, power-on, scanning, connecting),
/// answered as the specification says, pinned to the specification's bytes rather than to the builders.
@Suite("HCI controller: the commands a Linux host sends")
struct LinuxHostCommandsTests: ControllerTesting {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"
    let battery: DeviceID = "B4:77:E2:00:00:02"

    func controller() -> HCIController {
        var controller = HCIController(address: BDAddress(value: 1))
        _ = controller.handle(command(.setEventMask, [UInt8](repeating: 0xFF, count: 8)))
        _ = controller.handle(command(.leSetEventMask, [UInt8](repeating: 0xFF, count: 8)))
        return controller
    }

    func connected(_ controller: inout HCIController, _ device: DeviceID) -> [UInt8] {
        _ = controller.handle(command(.leCreateConnection, HCICommand.createConnectionParameters(to: device)))
        let complete = events(controller.handle(.connected(device)))[0]
        return Array(complete.parameters[2...3])
    }

    /// The advertisement of a peripheral heard by a scanning controller.
    func heard(_ device: DeviceID, response: [UInt8]?, connectable: Bool = true) -> HCIController.Input {
        .advertisement(device, data: [0x02, 0x01, 0x06], scanResponse: response, isConnectable: connectable, rssi: -50)
    }

    /// Each command (Vol 4, Part E, 7.x) with its bit in Supported Commands (6.27), written from the
    /// specification's table rather than from the controller's list. Read Local Supported Commands itself has no
    /// bit (octet 14 bit 4 is reserved).
    static let specificationBits: [(opcode: UInt16, octet: Int, bit: Int)] = [
        (0x0406, 0, 5), (0x0C01, 5, 6), (0x0C03, 5, 7), (0x0C6D, 24, 6), (0x1001, 14, 3),
        (0x1003, 14, 5), (0x1005, 14, 7), (0x1009, 15, 1), (0x1405, 15, 5), (0x2001, 25, 0), (0x2002, 25, 1),
        (0x2003, 25, 2), (0x2005, 25, 4), (0x2006, 25, 5), (0x2007, 25, 6), (0x2008, 25, 7), (0x2009, 26, 0),
        (0x200A, 26, 1), (0x200B, 26, 2), (0x200C, 26, 3), (0x200D, 26, 4), (0x200E, 26, 5), (0x200F, 26, 6),
        (0x2010, 26, 7), (0x2011, 27, 0), (0x2012, 27, 1), (0x2013, 27, 2), (0x2014, 27, 3), (0x2015, 27, 4),
        (0x2016, 27, 5), (0x2017, 27, 6), (0x2018, 27, 7), (0x2019, 28, 0), (0x201A, 28, 1), (0x201B, 28, 2),
        (0x201C, 28, 3), (0x2022, 33, 6), (0x2023, 33, 7), (0x2024, 34, 0), (0x2027, 34, 3), (0x2029, 34, 5),
        (0x202F, 35, 3), (0x2030, 35, 4), (0x2031, 35, 5), (0x2032, 35, 6),
    ]

    @Test("Supported Commands lists exactly the commands answered with something other than Unknown HCI Command")
    func supportedCommandsAreTruthful() {
        var reference = controller()
        let listed = Array(events(reference.handle(command(.readLocalSupportedCommands)))[0].parameters[4...])
        for (code, octet, bit) in Self.specificationBits {
            // A fresh controller each time: an answer does not depend on what came before (lengths aside).
            var controller = controller()
            let answer = events(controller.handle(command(HCIOpcode(rawValue: code))))
            let unknown =
                answer == [.commandStatus(0x01, HCIOpcode(rawValue: code))]
                || answer == [.commandComplete(HCIOpcode(rawValue: code), [0x01])]
            let isListed = listed[octet] >> bit & 1 == 1
            #expect(isListed == !unknown, "0x\(String(code, radix: 16)): listed \(isListed), answered \(!unknown)")
        }
    }

    @Test("LE Read Supported States: scanning, initiating and central, alone and together (7.8.27)")
    func supportedStates() {
        var controller = controller()
        // Bits 4, 5, 6; 22, 23 (scanning while initiating); 24, 25 (scanning as central); 28 (initiating as central)
        #expect(
            events(controller.handle(command(.leReadSupportedStates))) == [
                HCIEvent(code: 0x0E, parameters: [0x01, 0x1C, 0x20, 0x00, 0x70, 0x00, 0xC0, 0x13, 0, 0, 0, 0])
            ])
    }

    @Test("LE Read Local Supported Features: LE Encryption, Data Length Extension and LE 2M PHY, all served")
    func localFeatures() {
        var controller = controller()
        #expect(
            events(controller.handle(command(.leReadLocalSupportedFeatures))) == [
                HCIEvent(code: 0x0E, parameters: [0x01, 0x03, 0x20, 0x00, 0x21, 0x01, 0, 0, 0, 0, 0, 0])
            ])
    }

    @Test("LE Read Remote Features: Command Status, then LE Read Remote Features Complete for the link (7.7.65.4)")
    func remoteFeatures() {
        var controller = controller()
        let handle = connected(&controller, thermostat)
        #expect(
            events(controller.handle(command(.leReadRemoteFeatures, handle))) == [
                HCIEvent(code: 0x0F, parameters: [0x00, 0x01, 0x16, 0x20]),
                HCIEvent(code: 0x3E, parameters: [0x04, 0x00] + handle + [0x21, 0x01, 0, 0, 0, 0, 0, 0]),
            ])
        // And a handle with no link is refused in Command Status, Unknown Connection Identifier
        #expect(
            events(controller.handle(command(.leReadRemoteFeatures, [0x99, 0x00]))) == [
                HCIEvent(code: 0x0F, parameters: [0x02, 0x01, 0x16, 0x20])
            ])
    }

    @Test("LE Connection Update: the parameters checked, then LE Connection Update Complete with the new ones")
    func connectionUpdate() {
        var controller = controller()
        let handle = connected(&controller, thermostat)
        // Interval 24...40 (30–50 ms), latency 4, timeout 500 (5 s), CE lengths 0
        let update = handle + [24, 0, 40, 0, 4, 0, 0xF4, 0x01, 0, 0, 0, 0]
        #expect(
            events(controller.handle(command(.leConnectionUpdate, update))) == [
                HCIEvent(code: 0x0F, parameters: [0x00, 0x01, 0x13, 0x20]),
                HCIEvent(code: 0x3E, parameters: [0x03, 0x00] + handle + [40, 0, 4, 0, 0xF4, 0x01]),
            ])
        // A supervision timeout of 100 ms for a 50 ms interval and latency 4 (it must exceed 500 ms) is refused
        let short = handle + [24, 0, 40, 0, 4, 0, 10, 0, 0, 0, 0, 0]
        #expect(
            events(controller.handle(command(.leConnectionUpdate, short))) == [
                HCIEvent(code: 0x0F, parameters: [0x12, 0x01, 0x13, 0x20])
            ])
    }

    @Test("an active scan hears a scan response for every scannable advertisement, empty when it has none")
    func scanResponses() {
        var controller = controller()
        _ = controller.handle(command(.leSetScanParameters, [0x01, 0x10, 0x00, 0x10, 0x00, 0x00, 0x00]))
        _ = controller.handle(command(.leSetScanEnable, [0x01, 0x00]))
        // A connectable advertiser without scan response data: ADV_IND, then an empty SCAN_RSP
        let report = events(controller.handle(heard(battery, response: nil)))
        #expect(report.count == 2)
        #expect(report.last?.parameters[2] == 0x04)  // SCAN_RSP
        #expect(report.last?.parameters[10] == 0x00)  // no data
        // A non-connectable advertiser with scan response data: ADV_SCAN_IND, then its SCAN_RSP
        let scannable = events(controller.handle(heard(thermostat, response: [0x02, 0x09, 0x41], connectable: false)))
        #expect(scannable.map { $0.parameters[2] } == [0x02, 0x04])
        // A non-connectable advertiser without one: ADV_NONCONN_IND alone
        #expect(events(controller.handle(heard(battery, response: nil, connectable: false))).count == 1)
    }

    @Test("a passive scan hears no scan response")
    func passiveScan() {
        var controller = controller()
        _ = controller.handle(command(.leSetScanEnable, [0x01, 0x00]))
        #expect(events(controller.handle(heard(battery, response: nil))).count == 1)
    }

    @Test("scanning with filter policy 0x01 reports only the advertisers on the filter accept list")
    func filterAcceptList() {
        var controller = controller()
        // The battery (public) is on the list
        let entry: [UInt8] = [0x00] + battery.hciAddress
        #expect(
            events(controller.handle(command(.leAddDeviceToFilterAcceptList, entry))) == [
                HCIEvent(code: 0x0E, parameters: [0x01, 0x11, 0x20, 0x00])
            ])
        _ = controller.handle(command(.leSetScanParameters, [0x00, 0x10, 0x00, 0x10, 0x00, 0x00, 0x01]))
        _ = controller.handle(command(.leSetScanEnable, [0x01, 0x00]))
        #expect(events(controller.handle(heard(thermostat, response: nil))).isEmpty)
        #expect(events(controller.handle(heard(battery, response: nil))).count == 1)
        // The list does not change while it filters a scan (7.8.16)
        #expect(
            events(controller.handle(command(.leClearFilterAcceptList))) == [
                HCIEvent(code: 0x0E, parameters: [0x01, 0x10, 0x20, 0x0C])
            ])
        _ = controller.handle(command(.leSetScanEnable, [0x00, 0x00]))
        _ = controller.handle(command(.leRemoveDeviceFromFilterAcceptList, entry))
        _ = controller.handle(command(.leSetScanEnable, [0x01, 0x00]))
        #expect(events(controller.handle(heard(battery, response: nil))).isEmpty)
    }

    @Test("the filter accept list holds as many entries as it says, and refuses one more with 0x07")
    func filterAcceptListSize() {
        var controller = controller()
        let size = events(controller.handle(command(.leReadFilterAcceptListSize)))[0].parameters[4]
        #expect(size == HCIController.acceptListSize)
        for index in 0..<Int(size) {
            let answer = events(
                controller.handle(command(.leAddDeviceToFilterAcceptList, [0x01, UInt8(index), 0, 0, 0, 0, 0xC0])))
            #expect(answer[0].parameters[3] == 0x00)
        }
        let full = events(controller.handle(command(.leAddDeviceToFilterAcceptList, [0x01, 0xFF, 0, 0, 0, 0, 0xC0])))
        #expect(full == [HCIEvent(code: 0x0E, parameters: [0x01, 0x11, 0x20, 0x07])])
        // A Reset empties it
        _ = controller.handle(command(.reset))
        let again = events(controller.handle(command(.leAddDeviceToFilterAcceptList, [0x01, 0xFF, 0, 0, 0, 0, 0xC0])))
        #expect(again[0].parameters[3] == 0x00)
    }

    @Test(
        "the advertising and scan response data Linux writes at every power-on are taken; an advertising enable is not")
    func advertisingData() {
        var controller = controller()
        let data = [UInt8](repeating: 0, count: 32)
        #expect(events(controller.handle(command(.leSetAdvertisingData, data)))[0].parameters[3] == 0x00)
        #expect(events(controller.handle(command(.leSetScanResponseData, data)))[0].parameters[3] == 0x00)
        // A length over 31 is refused with 0x12
        #expect(
            events(controller.handle(command(.leSetAdvertisingData, [32] + data.dropFirst())))[0].parameters[3] == 0x12)
        // This controller does not advertise: Unknown HCI Command, which Supported Commands does not list either
        #expect(
            events(controller.handle(command(.leSetAdvertisingEnable, [0x01]))) == [
                .commandStatus(0x01, .leSetAdvertisingEnable)
            ])
    }
}
