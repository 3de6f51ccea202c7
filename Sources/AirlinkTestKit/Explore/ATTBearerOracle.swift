import AirlinkCore
import AirlinkSimulation

/// The ATT bearer's rules (Core Spec Vol 3, Part F, 3.3), from the PDUs on air.
///
/// A client has at most one request outstanding on a bearer: it sends the next only after the response
/// (or error response) to the previous one. A request never answered ends the bearer's use after its
/// 30 s transaction timeout: no further request may be sent on that link, so it too shows as a second
/// request outstanding. Every PDU a client sends is valid: its bytes decode to it, its handles are not
/// 0x0000, its ranges start at 1 and do not run backwards, and it fits the bearer's ATT_MTU (23 until an
/// MTU exchange agrees on more).
public struct ATTBearerOracle: ExplorationOracle {
    /// `att`.
    public var name: String { "att" }

    /// Creates the oracle.
    public init() {}

    private struct Bearer {
        var outstanding: (time: Duration, pdu: ATTPDU)?
        var clientMTU = ATTServer.defaultMTU
        var mtu = ATTServer.defaultMTU
    }

    private struct Link: Hashable {
        var adapter: Int
        var device: DeviceID
    }

    /// Requests sent while another was outstanding, and invalid client PDUs.
    public func violations(in observation: ExplorationObservation) -> [String] {
        var bearers: [Link: Bearer] = [:]
        var violations: [String] = []
        for record in observation.records {
            let time = record.time.offset
            switch record.event {
            case .connected(let adapter, let device, _), .disconnected(let adapter, let device, _):
                bearers[Link(adapter: adapter, device: device)] = Bearer()
            case .attPDU(let adapter, let device, let direction, let pdu, let bytes):
                let link = Link(adapter: adapter, device: device)
                var bearer = bearers[link] ?? Bearer()
                let at = "\(device): \(pdu.opcode) at t=\(time.scenarioText)"
                if direction == .toPeripheral {
                    violations += invalid(pdu, bytes, mtu: bearer.mtu).map { "\(at): \($0)" }
                    if Self.isRequest(pdu) {
                        if let (since, previous) = bearer.outstanding {
                            violations.append(
                                "\(at) sent while \(previous.opcode) from t=\(since.scenarioText) was outstanding")
                        }
                        bearer.outstanding = (time, pdu)
                        if case .exchangeMTURequest(let mtu) = pdu { bearer.clientMTU = mtu }
                    }
                } else if Self.isResponse(pdu) {
                    bearer.outstanding = nil
                    if case .exchangeMTUResponse(let server) = pdu {
                        bearer.mtu = max(ATTServer.defaultMTU, min(bearer.clientMTU, server))
                    }
                }
                bearers[link] = bearer
            default:
                break
            }
        }
        return violations
    }

    /// What is wrong with a PDU a client sent, if anything.
    private func invalid(_ pdu: ATTPDU, _ bytes: [UInt8], mtu: UInt16) -> [String] {
        var problems: [String] = []
        // try?: bytes that do not decode are a problem the oracle reports, as bytes that decode to another PDU
        if (try? ATTPDU(decoding: bytes)) != pdu { problems.append("its bytes do not decode to it") }
        if bytes.count > Int(mtu) { problems.append("\(bytes.count) bytes exceed the ATT_MTU of \(mtu)") }
        switch pdu {
        case .findInformationRequest(let start, let end), .findByTypeValueRequest(let start, let end, _, _),
            .readByTypeRequest(let start, let end, _), .readByGroupTypeRequest(let start, let end, _):
            if start.rawValue == 0 || start > end { problems.append("its range \(start)...\(end) is invalid") }
        case .readRequest(let handle), .readBlobRequest(let handle, _), .writeRequest(let handle, _),
            .writeCommand(let handle, _), .prepareWriteRequest(let handle, _, _):
            if handle.rawValue == 0 { problems.append("it names handle 0x0000") }
        default:
            break
        }
        return problems
    }

    static func isRequest(_ pdu: ATTPDU) -> Bool {
        switch pdu {
        case .exchangeMTURequest, .findInformationRequest, .findByTypeValueRequest, .readByTypeRequest, .readRequest,
            .readBlobRequest, .readByGroupTypeRequest, .writeRequest, .prepareWriteRequest, .executeWriteRequest:
            true
        default: false
        }
    }

    static func isResponse(_ pdu: ATTPDU) -> Bool {
        switch pdu {
        case .errorResponse, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse,
            .readByTypeResponse, .readResponse, .readBlobResponse, .readByGroupTypeResponse, .writeResponse,
            .prepareWriteResponse, .executeWriteResponse:
            true
        default: false
        }
    }
}
