import AirlinkCore

extension Link {
    /// Whether packets cross at all.
    var canExchange: Bool {
        assertConfined()
        return !isClosed && peripheralAlive && peripheralReachable
    }

    /// The start of the first connection event after `time`; with peripheral latency, traffic from
    /// the central alone waits for an event the peripheral listens to (Core Spec Vol 6, Part B, 4.5.1).
    func nextEventStart(after time: VirtualInstant) -> VirtualInstant {
        assertConfined()
        guard time >= anchor else { return anchor }
        var index = (time - anchor) / interval + 1
        if latency > 0, toCentral.isEmpty {
            let period = Int64(latency + 1)
            index = (index + period - 1) / period * period
        }
        return anchor + interval * index
    }

    /// Queues a PDU from the central.
    func sendToPeripheral(_ pdu: ATTPDU) {
        sendToPeripheral(payload: LinkPayload(pdu))
    }

    /// Queues a PDU from the peripheral.
    func sendToCentral(_ pdu: ATTPDU) {
        assertConfined()
        guard peripheralAlive else { return }
        let payload = LinkPayload(pdu)
        toCentral.append(Outgoing(payload: payload, remaining: payload.count + 4))
        ensurePump()
    }

    /// Arms the next connection event if there is traffic and none is armed.
    func ensurePump() {
        assertConfined()
        guard pumpAt == nil, canExchange, !(toPeripheral.isEmpty && toCentral.isEmpty) else { return }
        let start = nextEventStart(after: world.now)
        pumpAt = start
        world.kernel.schedule(at: start, self, tag: LinkTimer.connectionEvent(start: start).tag)
    }

    /// One connection event: the central and the peripheral exchange packets (each carrying up to
    /// the data length of a queued PDU, or empty) while the event length allows; a PDU arrives when
    /// its last fragment does. PDUs queued during the event wait for the next one, so a response
    /// takes at least one more event (Core Spec Vol 6, Part B, 4.5.1 and 4.5.6).
    func runEvent(at start: VirtualInstant) {
        assertConfined()
        guard canExchange else { return }
        let spacing = AirTime.interFrameSpace
        var elapsed = VirtualDuration.zero
        var last: VirtualInstant?
        let batch = nextBatch
        while !(toPeripheral.isEmpty && toCentral.isEmpty) {
            let fromCentral = toPeripheral.isEmpty ? 0 : min(toPeripheral[0].remaining, dataLength)
            let fromPeripheral = toCentral.isEmpty ? 0 : min(toCentral[0].remaining, dataLength)
            let centralAir = AirTime.packet(payload: fromCentral, phy: phy)
            let peripheralAir = AirTime.packet(payload: fromPeripheral, phy: phy)
            let exchange = centralAir + spacing + peripheralAir
            if elapsed > .zero, elapsed + exchange > eventLength { break }
            if !toPeripheral.isEmpty {
                toPeripheral[0].remaining -= fromCentral
                if toPeripheral[0].remaining <= 0 {
                    last = start + elapsed + centralAir
                    inFlight.append(
                        InFlightPDU(batch: batch, toCentral: false, payload: toPeripheral.removeFirst().payload))
                }
            }
            if !toCentral.isEmpty {
                toCentral[0].remaining -= fromPeripheral
                if toCentral[0].remaining <= 0 {
                    last = start + elapsed + exchange
                    inFlight.append(
                        InFlightPDU(batch: batch, toCentral: true, payload: toCentral.removeFirst().payload))
                }
            }
            elapsed += exchange + spacing
        }
        // The host hears the event's PDUs when the event's last packet has arrived, in packet order:
        // one radio event per connection event, however many packets it carried.
        if let last {
            nextBatch += 1
            world.kernel.schedule(at: last, self, tag: LinkTimer.delivery(batch: batch).tag)
        }
        ensurePump()
    }

    /// Hands the PDUs of one connection event to the two ends, in the order they crossed.
    func deliver(batch: Int64) {
        assertConfined()
        guard let first = inFlight.firstIndex(where: { $0.batch == batch }) else { return }
        if first > 0 {  // an earlier event's PDUs still wait (it ran longer than the interval)
            let deliveries = inFlight[first...].prefix { $0.batch == batch }
            inFlight.removeSubrange(first..<first + deliveries.count)
            for delivery in deliveries { deliver(delivery) }
            return
        }
        while let delivery = inFlight.first, delivery.batch == batch {
            inFlight.removeFirst()
            deliver(delivery)
        }
    }

    private func deliver(_ delivery: InFlightPDU) {
        guard !isClosed else { return }
        if delivery.toCentral {
            receiveAtCentral(delivery.payload)
        } else if peripheralAlive {
            receiveAtPeripheral(delivery.payload)
        }
    }
}
