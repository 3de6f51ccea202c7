import AirlinkCore

extension RadioWorld {
    /// Records a PDU crossing the air (`hci1 C0:FF:EE:00:00:01 > ATT_READ_REQ handle=0x0003`), the
    /// hottest record of a traced run: the trace keeps its bytes once and decodes them again when read.
    @inline(__always)
    func recordPDU(_ link: Link, _ direction: ATTDirection, _ pdu: ATTPDU, _ payload: LinkPayload) {
        guard tracing else { return }  // a PDU that travels as it is is encoded only for the trace
        trace.recordPDU(
            adapter: link.central.adapterIndex, device: link.peripheral.id, direction: direction, pdu: pdu,
            bytes: payload.bytes)
    }
}
