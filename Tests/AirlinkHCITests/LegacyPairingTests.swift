import AirlinkCore
import Testing

@testable import AirlinkHCI

/// LE legacy pairing (Just Works) between a host's SMP and a peripheral behind the controller, and the encryption
/// that follows (Core Spec Vol 3, Part H; Vol 4, Part E, 7.8.24).
@Suite("HCI controller: legacy pairing and encryption")
struct LegacyPairingTests: ControllerTesting {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// Big-endian hex as the specification prints it, turned into SMP's order (least significant octet first).
    func smp(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes.reversed()
    }

    @Test("c1 gives the specification's sample confirm value (Vol 3, Part H, 2.2.3)")
    func c1Sample() {
        let confirm = LegacyPairingCrypto.c1(
            key: smp("00000000000000000000000000000000"), random: smp("5783D52156AD6F0E6388274EC6702EE0"),
            request: smp("07071000000101"), response: smp("05000800000302"), initiator: (smp("A1A2A3A4A5A6"), 0x01),
            responder: (smp("B1B2B3B4B5B6"), 0x00))
        #expect(confirm == smp("1E1E3FEF878988EAD2A74DC5BEF13B86"))
    }

    @Test("s1 gives the specification's sample key (Vol 3, Part H, 2.2.4)")
    func s1Sample() {
        let key = LegacyPairingCrypto.s1(
            key: smp("00000000000000000000000000000000"), responderRandom: smp("000F0E0D0C0B0A091122334455667788"),
            initiatorRandom: smp("010203040506070899AABBCCDDEEFF00"))
        #expect(key == smp("9A1FE1F0E8B0F49B5B4216AE796DA062"))
    }

    /// A controller with every event on and a link to the thermostat: it and the link's handle.
    func connected() -> (HCIController, UInt16) {
        var controller = HCIController(address: BDAddress(value: 0xA1_4C_00_00_00_01), seed: 7)
        _ = controller.handle(command(.setEventMask, [UInt8](repeating: 0xFF, count: 8)))
        _ = controller.handle(command(.leSetEventMask, [UInt8](repeating: 0xFF, count: 8)))
        _ = controller.handle(command(.leCreateConnection, HCICommand.createConnectionParameters(to: thermostat)))
        let complete = events(controller.handle(.connected(thermostat)))[0]
        return (controller, UInt16(complete.parameters[2]) | UInt16(complete.parameters[3]) << 8)
    }

    /// Sends an SMP PDU as the host's and returns the SMP PDUs the peripheral answered with.
    func send(_ pdu: [UInt8], _ controller: inout HCIController, _ handle: UInt16) -> [[UInt8]] {
        let frame = L2CAPFrame(channel: L2CAPFrame.smpChannel, payload: pdu)
        return smpAnswers(controller.handle(.host(.acl(HCIACLPacket(handle: handle, data: frame.encoded)))))
    }

    func smpAnswers(_ actions: [HCIController.Action]) -> [[UInt8]] {
        actions.compactMap { action in
            guard case .send(.acl(let packet)) = action, packet.data.count >= 4,
                packet.data[2] == 0x06, packet.data[3] == 0x00
            else { return nil }
            return Array(packet.data[4...])
        }
    }

    /// The host's side of a Just Works pairing with bonding, as Linux's SMP runs it: the STK both sides hold.
    func pair(_ controller: inout HCIController, _ handle: UInt16) throws -> [UInt8] {
        let request: [UInt8] = [0x01, 0x04, 0x00, 0x05, 16, 0x07, 0x07]  // KeyboardDisplay, bonding+MITM, no SC
        let response = try #require(send(request, &controller, handle).first)
        // NoInputNoOutput, no OOB, bonding only, 16 octets, no initiator keys, the responder's LTK
        #expect(response == [0x02, 0x03, 0x00, 0x01, 16, 0x00, 0x01])
        let initiator = (DeviceID(BDAddress(value: 0xA1_4C_00_00_00_01)).hciAddress, UInt8(0))
        let responder = (thermostat.hciAddress, UInt8(0))
        let mrand = [UInt8](repeating: 0x5A, count: 16)
        let mconfirm = LegacyPairingCrypto.c1(
            key: SMPResponder.justWorksKey, random: mrand, request: request, response: response,
            initiator: initiator, responder: responder)
        let sconfirm = try #require(send([0x03] + mconfirm, &controller, handle).first)
        #expect(sconfirm.first == 0x03)
        let srandPDU = try #require(send([0x04] + mrand, &controller, handle).first)
        let srand = Array(srandPDU.dropFirst())
        // The peripheral's confirm checks out against its random, as the host checks it
        let expected = LegacyPairingCrypto.c1(
            key: SMPResponder.justWorksKey, random: srand, request: request, response: response,
            initiator: initiator, responder: responder)
        #expect(Array(sconfirm.dropFirst()) == expected)
        return LegacyPairingCrypto.s1(key: SMPResponder.justWorksKey, responderRandom: srand, initiatorRandom: mrand)
    }

    func enableEncryption(_ handle: UInt16, rand: [UInt8], ediv: UInt16, key: [UInt8]) -> HCIController.Input {
        command(
            .leEnableEncryption,
            [UInt8(handle & 0xFF), UInt8(handle >> 8)] + rand + [UInt8(ediv & 0xFF), UInt8(ediv >> 8)] + key)
    }

    @Test("Just Works with bonding: encrypted with the STK, the LTK distributed, then re-encrypted with it")
    func pairsBondsAndReencrypts() throws {
        var (controller, handle) = connected()
        let stk = try pair(&controller, handle)
        // When the host encrypts with the STK (Rand and EDIV zero)
        let actions = controller.handle(
            enableEncryption(handle, rand: [UInt8](repeating: 0, count: 8), ediv: 0, key: stk))
        // Then Command Status, Encryption Change on, the peripheral's server told, and its keys distributed
        let lowHandle = UInt8(handle & 0xFF)
        let highHandle = UInt8(handle >> 8)
        #expect(
            events(actions) == [
                HCIEvent(code: 0x0F, parameters: [0x00, 0x01, 0x19, 0x20]),
                HCIEvent(code: 0x08, parameters: [0x00, lowHandle, highHandle, 0x01]),
            ])
        #expect(actions.contains(.encrypted(thermostat, level: .encrypted, keySize: 16)))
        let keys = smpAnswers(actions)
        #expect(keys.map(\.first) == [0x06, 0x07])
        let ltk = Array(try #require(keys.first).dropFirst())
        let identification = try #require(keys.last)
        let ediv = UInt16(identification[1]) | UInt16(identification[2]) << 8
        let rand = Array(identification[3...])
        #expect(ltk.count == 16 && rand.count == 8)

        // And on a later link the host's bond encrypts it again without pairing
        _ = controller.handle(.disconnected(thermostat, reason: 0x13))
        var second = controller
        _ = second.handle(command(.leCreateConnection, HCICommand.createConnectionParameters(to: thermostat)))
        let complete = events(second.handle(.connected(thermostat)))[0]
        let again = UInt16(complete.parameters[2]) | UInt16(complete.parameters[3]) << 8
        let reencrypted = second.handle(enableEncryption(again, rand: rand, ediv: ediv, key: ltk))
        #expect(events(reencrypted).last == .encryptionChange(status: 0x00, handle: again, enabled: true))
        #expect(reencrypted.contains(.encrypted(thermostat, level: .encrypted, keySize: 16)))
        // But a key it never distributed meets PIN or Key Missing (0x06)
        let wrong = second.handle(
            enableEncryption(again, rand: rand, ediv: ediv, key: [UInt8](repeating: 1, count: 16)))
        #expect(events(wrong).last == .encryptionChange(status: 0x06, handle: again, enabled: false))
    }

    @Test("a wrong confirm value fails the pairing with Confirm Value Failed (0x04)")
    func wrongConfirm() throws {
        var (controller, handle) = connected()
        _ = send([0x01, 0x03, 0x00, 0x01, 16, 0x00, 0x01], &controller, handle)
        _ = send([0x03] + [UInt8](repeating: 0x11, count: 16), &controller, handle)
        #expect(send([0x04] + [UInt8](repeating: 0x22, count: 16), &controller, handle) == [[0x05, 0x04]])
        // And no key: encrypting with zeros is refused
        let actions = controller.handle(
            enableEncryption(
                handle, rand: [UInt8](repeating: 0, count: 8), ediv: 0, key: [UInt8](repeating: 0, count: 16)))
        #expect(events(actions).last == .encryptionChange(status: 0x06, handle: handle, enabled: false))
    }

    @Test("a public key before any Pairing Request ends the pairing with Unspecified Reason (0x08)")
    func publicKeyOutOfTurn() {
        var (controller, handle) = connected()
        #expect(send([0x0C] + [UInt8](repeating: 0, count: 64), &controller, handle) == [[0x05, 0x08]])
    }

    @Test("an unknown SMP command is answered Command Not Supported (0x07)")
    func unknownCommand() {
        var (controller, handle) = connected()
        #expect(send([0x0F, 0x00], &controller, handle) == [[0x05, 0x07]])
    }
}
