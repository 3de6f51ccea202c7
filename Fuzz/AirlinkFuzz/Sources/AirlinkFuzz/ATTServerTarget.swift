import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation

/// The stateful ATT server: a sequence of PDUs from a client against the attribute database of a
/// built-in peripheral (thermostat, battery sensor, SensorTag).
///
/// Input: one byte of options (bits 0–1 the peripheral, bits 2–3 the link's security level, bit 4
/// authorized), then records of a length byte and that many bytes. A record starting with 0xFF, an
/// opcode no client sends, is a value update from the application instead: a handle (2 bytes, little
/// endian), a byte choosing notification (even) or indication (odd), then the value.
///
/// The contract, after every record: each request gets exactly one response, the request's own
/// response or an Error Response naming it; every PDU the server sends is valid (it decodes to itself)
/// and fits the effective ATT_MTU; the MTU stays within 23–517.
let attServerTarget = FuzzTarget(name: "att-server") { bytes in
    let name = "att-server"
    guard let options = bytes.first else { return }
    var server = ATTServer(database: builtInDatabases[Int(options & 0x03) % builtInDatabases.count])
    server.securityLevel =
        [.none, .encrypted, .authenticated, .authenticatedSecureConnections][Int(options >> 2 & 0x03)]
    server.isAuthorized = options & 0x10 != 0
    var index = 1
    while index < bytes.count {
        let length = Int(bytes[index])
        let record = Array(bytes[(index + 1)..<min(bytes.count, index + 1 + length)])
        index += 1 + length
        let actions: [ATTServer.Action]
        if record.first == 0xFF {
            actions = valueUpdate(record, on: &server)
        } else {
            actions = server.handle(record)
            checkResponse(to: record, in: actions, name)
        }
        for case .send(let pdu) in actions {
            let encoded = pdu.encoded
            guard encoded.count <= Int(server.mtu) else {
                violated(name, "sent \(pdu) of \(encoded.count) bytes over ATT_MTU \(server.mtu), after \(record)")
            }
            guard (try? ATTPDU(decoding: encoded)) == pdu else { violated(name, "sent an invalid PDU \(pdu)") }
        }
        guard (ATTServer.defaultMTU...ATTServer.maximumMTU).contains(server.mtu) else {
            violated(name, "ATT_MTU \(server.mtu) after \(record)")
        }
    }
}

/// The attribute databases of the built-in world's peripherals, built once.
private let builtInDatabases: [AttributeDatabase] = SimulatedWorld.builtIn.peripherals.map { spec in
    guard let database = try? AttributeDatabase(spec.gattDefinition) else {
        violated("att-server", "the built-in \(spec.name) has no attribute database")
    }
    return database
}

/// The opcodes of the requests the server answers, each answered by the opcode after it.
private let requestOpcodes: Set<UInt8> = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x10, 0x12, 0x16, 0x18]

/// A request gets exactly one response: its own or an Error Response naming it.
private func checkResponse(to record: [UInt8], in actions: [ATTServer.Action], _ name: String) {
    guard let opcode = record.first, requestOpcodes.contains(opcode) else { return }
    let sent = actions.compactMap { action -> ATTPDU? in
        if case .send(let pdu) = action { pdu } else { nil }
    }
    guard sent.count == 1, let response = sent.first else {
        violated(name, "request \(record) got \(sent.count) PDUs: \(sent)")
    }
    if case .errorResponse(let request, _, _) = response {
        guard request.rawValue == opcode else { violated(name, "\(response) names another request than \(record)") }
    } else if response.opcode.rawValue != opcode + 1 {
        violated(name, "request \(record) was answered with \(response)")
    }
}

/// A notification or indication the application pushes: refused with a typed error or sent.
private func valueUpdate(_ record: [UInt8], on server: inout ATTServer) -> [ATTServer.Action] {
    guard record.count >= 4 else { return [] }
    let handle = ATTHandle(UInt16(record[1]) | UInt16(record[2]) << 8)
    let value = Array(record[4...])
    do {
        return record[3] % 2 == 0
            ? try server.notify(value, for: handle) : try server.indicate(value, for: handle)
    } catch {
        return []
    }
}
