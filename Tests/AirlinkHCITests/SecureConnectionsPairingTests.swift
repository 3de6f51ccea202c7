import AirlinkCore
import Testing

@testable import AirlinkHCI

/// LE Secure Connections pairing (Just Works) between a host's SMP and a peripheral behind the controller, and the
/// encryption that follows (Core Spec Vol 3, Part H, 2.3.5.6; the functions against the sample data of Appendix D).
@Suite("HCI controller: LE Secure Connections pairing")
struct SecureConnectionsPairingTests: ControllerTesting {
    let legacy = LegacyPairingTests()
    var thermostat: DeviceID { legacy.thermostat }

    /// Hex as the specification prints it, most significant octet first (spaces allowed).
    static func hex(_ text: String) -> [UInt8] {
        let digits = text.filter { !$0.isWhitespace }
        return stride(from: 0, to: digits.count, by: 2).map { offset in
            let start = digits.index(digits.startIndex, offsetBy: offset)
            return UInt8(digits[start..<digits.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    static let privateA = hex("3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd")
    static let privateB = hex("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd")
    static let publicAX = hex("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6")
    static let publicAY = hex("dc809c49 652aeb6d 63329abf 5a52155c 766345c2 8fed3024 741c8ed0 1589d28b")
    static let publicBX = hex("1ea1f0f0 1faf1d96 09592284 f19e4c00 47b58afd 8615a69f 559077b2 2faaa190")
    static let publicBY = hex("4c55f33e 429dad37 7356703a 9ab85160 472d1130 e28e3676 5f89aff9 15b1214a")
    static let dhKey = hex("ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698")

    @Test("P-256 gives the specification's sample key pairs and DHKey (Appendix D.1)")
    func keyAgreementSample() throws {
        let a = try #require(SecureConnectionsCrypto.keyPair(Self.privateA))
        let b = try #require(SecureConnectionsCrypto.keyPair(Self.privateB))
        #expect(SecureConnectionsCrypto.publicKey(a) == (Self.publicAX, Self.publicAY))
        #expect(SecureConnectionsCrypto.publicKey(b) == (Self.publicBX, Self.publicBY))
        #expect(SecureConnectionsCrypto.dhKey(a, peerX: Self.publicBX, peerY: Self.publicBY) == Self.dhKey)
        #expect(SecureConnectionsCrypto.dhKey(b, peerX: Self.publicAX, peerY: Self.publicAY) == Self.dhKey)
        // A point off the curve is no key
        #expect(SecureConnectionsCrypto.dhKey(a, peerX: Self.publicBX, peerY: Self.publicAY) == nil)
    }

    @Test("f4, f5 and f6 give the specification's sample values (Appendix D.2 to D.4)")
    func functionSamples() {
        let n1 = Self.hex("d5cb8454 d177733e ffffb2ec 712baeab")
        let n2 = Self.hex("a6e8e7cc 25a75f6e 216583f7 ff3dc4cf")
        let a1 = Self.hex("00561237 37bfce")
        let a2 = Self.hex("00a71370 2dcfc1")
        #expect(
            SecureConnectionsCrypto.f4(Self.publicAX, Self.privateB, n1, 0)
                == Self.hex("f2c916f1 07a9bd1c f1eda1be a974872d"))
        let keys = SecureConnectionsCrypto.f5(Self.dhKey, n1, n2, a1, a2)
        #expect(keys.macKey == Self.hex("2965f176 a1084a02 fd3f6a20 ce636e20"))
        #expect(keys.ltk == Self.hex("69867911 69d7cd23 980522b5 94750a38"))
        #expect(
            SecureConnectionsCrypto.f6(
                keys.macKey, n1, n2, Self.hex("12a3343b b453bb54 08da42d2 0c2d0fc8"), Self.hex("010102"), a1, a2)
                == Self.hex("e3c47398 9cd0e8c5 d26c0b09 da958f61"))
    }

    /// The host's side of a Secure Connections Just Works pairing with bonding, as Linux's SMP runs it, with the
    /// specification's key pair A: the LTK both sides derive (SMP's order), or `nil` with what went wrong recorded.
    /// `check` is the DHKey check the host sends (its correct Ea by default).
    func pair(
        _ controller: inout HCIController, _ handle: UInt16, check: (([UInt8]) -> [UInt8])? = nil
    ) throws -> (ltk: [UInt8], answers: [[UInt8]]) {
        let request: [UInt8] = [0x01, 0x04, 0x00, 0x2D, 16, 0x0D, 0x0F]  // KeyboardDisplay, bonding+MITM+SC+CT2
        let response = try #require(legacy.send(request, &controller, handle).first)
        // NoInputNoOutput, no OOB, bonding and Secure Connections, 16 octets, no keys distributed
        #expect(response == [0x02, 0x03, 0x00, 0x09, 16, 0x00, 0x00])
        // Public keys: the host's, then the peripheral's and its confirm value
        let keyAndConfirm = legacy.send(
            [0x0C] + Self.publicAX.reversed() + Self.publicAY.reversed(), &controller, handle)
        #expect(keyAndConfirm.map(\.first) == [0x0C, 0x03])
        let peerKey = try #require(keyAndConfirm.first)
        let (peerX, peerY) = (Array(peerKey[1...32].reversed()), Array(peerKey[33...64].reversed()))
        let cb = Array(try #require(keyAndConfirm.last).dropFirst().reversed())
        let a = try #require(SecureConnectionsCrypto.keyPair(Self.privateA))
        let dhKey = try #require(SecureConnectionsCrypto.dhKey(a, peerX: peerX, peerY: peerY))
        // Nonces: the host's Na, the peripheral's Nb, which its confirm value must match
        let na = [UInt8](repeating: 0x5A, count: 16)
        let nbPDU = try #require(legacy.send([0x04] + na.reversed(), &controller, handle).first)
        #expect(nbPDU.first == 0x04)
        let nb = Array(nbPDU.dropFirst().reversed())
        #expect(cb == SecureConnectionsCrypto.f4(peerX, Self.publicAX, nb, 0), "Cb does not match Nb")
        // DHKey checks: the host's Ea, the peripheral's Eb
        let initiator = [0x00] + DeviceID(BDAddress(value: 0xA1_4C_00_00_00_01)).hciAddress.reversed()
        let responder = [0x00] + thermostat.hciAddress.reversed()
        let keys = SecureConnectionsCrypto.f5(dhKey, na, nb, initiator, responder)
        let none = [UInt8](repeating: 0, count: 16)
        let ea = SecureConnectionsCrypto.f6(keys.macKey, na, nb, none, [0x2D, 0x00, 0x04], initiator, responder)
        let answers = legacy.send([0x0D] + (check?(ea) ?? ea).reversed(), &controller, handle)
        if check == nil {
            let eb = SecureConnectionsCrypto.f6(keys.macKey, nb, na, none, [0x09, 0x00, 0x03], responder, initiator)
            #expect(answers == [[0x0D] + eb.reversed()], "Eb does not check out")
        }
        return (keys.ltk.reversed(), answers)
    }

    @Test("Just Works with bonding: the derived LTK encrypts the link, no key is distributed, and it is the bond")
    func pairsEncryptsAndBonds() throws {
        var (controller, handle) = legacy.connected()
        let (ltk, _) = try pair(&controller, handle)
        // When the host encrypts with the LTK both derived (Rand and EDIV zero)
        let zero = [UInt8](repeating: 0, count: 8)
        let actions = controller.handle(legacy.enableEncryption(handle, rand: zero, ediv: 0, key: ltk))
        // Then Encryption Change on, the peripheral's server told, and no key distributed
        #expect(events(actions).last == .encryptionChange(status: 0x00, handle: handle, enabled: true))
        #expect(actions.contains(.encrypted(thermostat, level: .encrypted, keySize: 16)))
        #expect(legacy.smpAnswers(actions).isEmpty)

        // And on a later link the same LTK, EDIV and Rand zero, encrypts it again without pairing
        _ = controller.handle(.disconnected(thermostat, reason: 0x13))
        _ = controller.handle(command(.leCreateConnection, HCICommand.createConnectionParameters(to: thermostat)))
        let complete = events(controller.handle(.connected(thermostat)))[0]
        let again = UInt16(complete.parameters[2]) | UInt16(complete.parameters[3]) << 8
        let reencrypted = controller.handle(legacy.enableEncryption(again, rand: zero, ediv: 0, key: ltk))
        #expect(events(reencrypted).last == .encryptionChange(status: 0x00, handle: again, enabled: true))
        // But another key meets PIN or Key Missing (0x06)
        var wrongKey = ltk
        wrongKey[0] ^= 0xFF
        let wrong = controller.handle(legacy.enableEncryption(again, rand: zero, ediv: 0, key: wrongKey))
        #expect(events(wrong).last == .encryptionChange(status: 0x06, handle: again, enabled: false))
    }

    @Test("a wrong DHKey check fails the pairing with DHKey Check Failed (0x0B), and leaves no key")
    func wrongCheck() throws {
        var (controller, handle) = legacy.connected()
        let (ltk, answers) = try pair(&controller, handle) { ea in ea.map { $0 ^ 0x01 } }
        #expect(answers == [[0x05, 0x0B]])
        let zero = [UInt8](repeating: 0, count: 8)
        let actions = controller.handle(legacy.enableEncryption(handle, rand: zero, ediv: 0, key: ltk))
        #expect(events(actions).last == .encryptionChange(status: 0x06, handle: handle, enabled: false))
    }

    @Test("a public key that is not a point of the curve ends the pairing with DHKey Check Failed (0x0B)")
    func invalidPublicKey() throws {
        var (controller, handle) = legacy.connected()
        _ = legacy.send([0x01, 0x04, 0x00, 0x2D, 16, 0x0D, 0x0F], &controller, handle)
        let offCurve = [0x0C] + Self.publicAX.reversed() + Self.publicBY.reversed()
        #expect(legacy.send(offCurve, &controller, handle) == [[0x05, 0x0B]])
    }
}
