import AirlinkCore
import AirlinkSimulation

/// GATT permissions hold, from the characteristics' declared properties: the peripheral never serves a
/// read of a characteristic value that does not declare `read`, nor accepts a write (Write Request or
/// Prepare Write Request) to one that declares neither `write` nor `writeWithoutResponse`.
///
/// Judged on the air: each request of the central and the peripheral's answer on that link (the ATT
/// bearer carries one request at a time), against the database the peripheral served then (its spec,
/// then each `changeDatabase`, the spec again after a `reset`). A request answered across a database
/// change is not judged.
public struct GATTPermissionsOracle: ExplorationOracle {
    /// `permissions`.
    public var name: String { "permissions" }

    /// Creates the oracle.
    public init() {}

    private struct Link: Hashable {
        var adapter: Int
        var device: DeviceID
    }

    /// Reads and writes the peripheral served although the characteristic's properties forbid them.
    public func violations(in observation: ExplorationObservation) -> [String] {
        var violations: [String] = []
        // The request awaiting its answer, per link (central and device).
        var pending: [Link: (time: Duration, pdu: ATTPDU)] = [:]
        for record in observation.records {
            guard case .attPDU(let adapter, let device, let direction, let pdu, _) = record.event else { continue }
            let link = Link(adapter: adapter, device: device)
            let time = record.time.offset
            if direction == .toPeripheral {
                switch pdu {  // the requests judged; others only end the wait for an answer
                case .readRequest, .readBlobRequest, .writeRequest, .prepareWriteRequest: pending[link] = (time, pdu)
                default: if ATTBearerOracle.isRequest(pdu) { pending[link] = nil }
                }
                continue
            }
            guard ATTBearerOracle.isResponse(pdu), let request = pending.removeValue(forKey: link) else { continue }
            let verdict: (handle: ATTHandle, needs: CharacteristicProperties, what: String)?
            switch (request.pdu, pdu) {
            case (.readRequest(let handle), .readResponse), (.readBlobRequest(let handle, _), .readBlobResponse):
                verdict = (handle, .read, "a read")
            case (.writeRequest(let handle, _), .writeResponse),
                (.prepareWriteRequest(let handle, _, _), .prepareWriteResponse):
                verdict = (handle, [.write, .writeWithoutResponse], "a write")
            default:
                verdict = nil
            }
            guard let verdict,
                let database = observation.database(of: device, at: time, steadyOver: request.time...time),
                case .characteristicValue(let properties, _) = database[verdict.handle]?.role,
                properties.isDisjoint(with: verdict.needs)
            else { continue }
            let uuid = database[verdict.handle].map { "\($0.type)" } ?? "?"
            violations.append(
                "\(device): the peripheral served \(verdict.what) of \(uuid) (handle \(verdict.handle)) at "
                    + "t=\(time.scenarioText), whose properties are [\(properties)]")
        }
        return violations
    }
}
