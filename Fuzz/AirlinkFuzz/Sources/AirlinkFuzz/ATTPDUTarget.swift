import AirlinkCore
import AirlinkSimulation

/// ATT PDUs: decoding never traps and throws only `malformedData`; a decoded PDU encodes to the same
/// bytes it came from (ATT has one encoding per PDU) and decodes again to itself.
let attPDUTarget = FuzzTarget(name: "att-pdu") { bytes in
    let name = "att-pdu"
    let pdu: ATTPDU
    do throws(AirlinkError) {
        pdu = try ATTPDU(decoding: bytes)
    } catch {
        guard error.code == .malformedData else { violated(name, "decoding threw \(error.code), not malformedData") }
        return
    }
    let encoded = pdu.encoded
    do throws(AirlinkError) {
        let again = try ATTPDU(decoding: encoded)
        guard again == pdu else { violated(name, "decode(encode(p)) != p: \(again) vs \(pdu)") }
    } catch {
        violated(name, "its own encoding \(encoded) does not decode: \(error)")
    }
    guard encoded == bytes else { violated(name, "encode(decode(b)) != b: \(encoded) from \(bytes)") }
    _ = pdu.description
}
