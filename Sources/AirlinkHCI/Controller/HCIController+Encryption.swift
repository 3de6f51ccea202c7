import AirlinkCore

extension HCIController {
    /// An SMP PDU from the host, for the peripheral's Security Manager (``SMPResponder``, LE legacy pairing with
    /// Just Works); its answers go back on the SMP channel.
    mutating func securityManager(_ pdu: [UInt8], handle: UInt16) -> [Action] {
        guard var connection = connections[handle] else { return [] }
        var source = random
        let outputs = connection.securityManager.handle(pdu) { source.bytes($0) }
        random = source
        var actions: [Action] = []
        for output in outputs {
            switch output {
            case .send(let answer):
                actions += toHost(L2CAPFrame(channel: L2CAPFrame.smpChannel, payload: answer), connection.device)
            case .shortTermKey(let key, let keySize, let bonding):
                connection.shortTermKey = (key, keySize, bonding, false)
                actions.append(.note("\(connection.device) paired (legacy, Just Works): the host may encrypt"))
            case .secureConnectionsKey(let key, let keySize, let bonding):
                connection.shortTermKey = (key, keySize, bonding, true)
                actions.append(
                    .note("\(connection.device) paired (LE Secure Connections, Just Works): the host may encrypt"))
            case .failed(let reason):
                connection.shortTermKey = nil
                actions.append(.note("\(connection.device) sent Pairing Failed 0x\(String(reason, radix: 16))"))
            }
        }
        connections[handle] = connection
        return actions
    }

    /// LE Enable Encryption (Vol 4, Part E, 7.8.24): the peripheral checks the key, as its host answers its LE Long
    /// Term Key Request. Rand and EDIV zero name the key of the pairing just run (legacy's STK, or Secure
    /// Connections' LTK), else a bond with EDIV and Rand zero (Secure Connections'); others, a legacy bond the
    /// peripheral keeps. Encryption Change follows: on, or PIN or Key Missing (0x06) for a key it does not hold.
    /// After an encryption with a bonding pairing's short-term key the peripheral distributes its LTK (Vol 3,
    /// Part H, 3.6.1).
    mutating func enableEncryption(_ parameters: [UInt8]) -> [Action] {
        let opcode = HCIOpcode.leEnableEncryption
        guard parameters.count == 28 else { return [Self.send(.commandStatus(Status.invalidParameters, opcode))] }
        let handle = UInt16(parameters[0]) | UInt16(parameters[1]) << 8
        guard var connection = connections[handle] else {
            return [Self.send(.commandStatus(Status.unknownConnection, opcode))]
        }
        let rand = Array(parameters[2..<10])
        let ediv = UInt16(parameters[10]) | UInt16(parameters[11]) << 8
        let key = Array(parameters[12..<28])
        var actions = [Self.send(.commandStatus(Status.success, opcode))]
        func changed(_ status: UInt8) -> [Action] {
            enabled(event: 0x08)
                ? [Self.send(.encryptionChange(status: status, handle: handle, enabled: status == 0))] : []
        }
        let device = connection.device
        if ediv == 0, rand.allSatisfy({ $0 == 0 }), let pairing = connection.shortTermKey {
            guard pairing.key == key else {
                return actions + changed(Status.pinOrKeyMissing)
                    + [.note("\(device): the host encrypted with another key than the pairing's")]
            }
            connection.shortTermKey = nil
            connections[handle] = connection
            actions += changed(Status.success) + [.encrypted(device, level: .encrypted, keySize: pairing.keySize)]
            guard pairing.bonding else { return actions }
            if pairing.secureConnections {
                // The derived LTK is the bond, with EDIV and Rand zero; neither side distributes it (Vol 3, Part H,
                // 2.4.2.1).
                bonds[device] = Bond(ltk: key, ediv: 0, rand: [UInt8](repeating: 0, count: 8), keySize: pairing.keySize)
                return actions + [.note("\(device) bonded: it keeps the LTK both derived")]
            }
            let bond = Bond(
                ltk: LegacyPairingCrypto.shortened(random.bytes(16), to: pairing.keySize),
                ediv: UInt16(truncatingIfNeeded: random.next()), rand: random.bytes(8), keySize: pairing.keySize)
            bonds[device] = bond
            for pdu in SMPResponder.keyDistribution(ltk: bond.ltk, ediv: bond.ediv, rand: bond.rand) {
                actions += toHost(L2CAPFrame(channel: L2CAPFrame.smpChannel, payload: pdu), device)
            }
            return actions + [.note("\(device) bonded: it keeps the LTK it distributed")]
        }
        guard let bond = bonds[device], bond.ediv == ediv, bond.rand == rand, bond.ltk == key else {
            return actions + changed(Status.pinOrKeyMissing)
                + [.note("\(device) has no such key: Encryption Change, PIN or Key Missing (0x06)")]
        }
        return actions + changed(Status.success) + [.encrypted(device, level: .encrypted, keySize: bond.keySize)]
    }
}
