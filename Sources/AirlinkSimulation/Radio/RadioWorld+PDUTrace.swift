import AirlinkCore

extension RadioWorld {
    /// Records a PDU crossing the air (`hci1 C0:FF:EE:00:00:01 > ATT_READ_REQ handle=0x0003`), the
    /// hottest record of a traced run: the event keeps the PDU and its bytes, nothing is copied.
    @inline(__always)
    func recordPDU(_ link: Link, _ direction: ATTDirection, _ pdu: ATTPDU, _ bytes: [UInt8]) {
        record(
            .attPDU(
                adapter: link.central.adapterIndex, device: link.peripheral.id, direction: direction, pdu: pdu,
                bytes: bytes))
    }
}
