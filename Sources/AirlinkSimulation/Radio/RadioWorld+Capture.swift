import AirlinkCore

extension RadioWorld {
    /// Keeps the bytes of the ATT PDU whose trace line was just recorded, while capturing.
    @inline(__always)
    func capturePDU(_ bytes: [UInt8]) {
        guard capturedPDUs != nil else { return }
        capturedPDUs?[trace.count - 1] = bytes
    }
}

extension Simulation {
    /// Starts keeping the bytes of every ATT PDU that crosses the air, for captures (btsnoop files).
    ///
    /// Each PDU is keyed by the index of its `att` line in the trace, which says its direction and
    /// device; the simulation must trace (`tracing: true`).
    public func startCapturingPDUs() {
        world.lock.withLock { if world.capturedPDUs == nil { world.capturedPDUs = [:] } }
    }

    /// The ATT PDUs captured so far, by the index of their trace line.
    public var capturedPDUs: [Int: [UInt8]] { world.lock.withLock { world.capturedPDUs ?? [:] } }
}
