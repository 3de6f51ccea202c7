import AirlinkCore

extension RadioWorld {
    /// Records the `att` line of a PDU crossing the air: `hci1 C0:FF:EE:00:00:01 > ATT_READ_REQ
    /// handle=0x0003`, written straight into the trace (the hottest line of a traced run).
    ///
    /// - Parameters:
    ///   - prefix: the central's trace prefix (empty for the first central).
    ///   - device: the peripheral's address as text.
    ///   - direction: `>` towards the peripheral, `<` towards the central.
    ///   - pdu: the PDU.
    @inline(__always)
    func recordPDU(_ prefix: String, _ device: String, _ direction: Unicode.Scalar, _ pdu: ATTPDU) {
        trace.record("att") { writer in
            writer.write(prefix)
            writer.write(device)
            writer.write(ascii: " ")
            writer.write(ascii: direction)
            writer.write(ascii: " ")
            pdu.write(to: &writer)
        }
    }
}
