import AirlinkCore
import AirlinkSimulation

/// What tests read from a simulation's trace: its typed records, not the rendered lines.
extension Sequence<TraceRecord> {
    /// The ATT PDUs centrals sent to peripherals (the `>` of `att` lines), decoded, in order.
    package var pdusSent: [ATTPDU] {
        compactMap { record in
            guard case .attPDU(_, _, .toPeripheral, let pdu, _) = record.event else { return nil }
            return pdu
        }
    }

    /// The layers' events, in order.
    package var layerEvents: [AirlinkEvent] {
        compactMap { record in
            guard case .layer(.event(let event)) = record.event else { return nil }
            return event
        }
    }

    /// The links that finished their set-up, with the ATT MTU each agreed, in order.
    package var linksReady: [(device: DeviceID, mtu: UInt16)] {
        compactMap { record in
            guard case .linkReady(_, let device, let mtu) = record.event else { return nil }
            return (device, mtu)
        }
    }

    /// The peripherals' Client Characteristic Configuration changes (value handle, notify, indicate), in order.
    package var subscriptionChanges: [(device: DeviceID, valueHandle: ATTHandle, notify: Bool, indicate: Bool)] {
        compactMap { record in
            guard case .subscriptionChanged(_, let device, let valueHandle, let notify, let indicate) = record.event
            else { return nil }
            return (device, valueHandle, notify, indicate)
        }
    }

    /// The Security Manager's steps (the `smp` lines), with their times and devices, in order.
    package var pairingSteps: [(time: AirlinkInstant, device: DeviceID, step: PairingStep)] {
        compactMap { record in
            guard case .pairing(_, let device, let step) = record.event else { return nil }
            return (record.time, device, step)
        }
    }

    /// The free-form records of `category` (`fault`, `radio`, …) with their times, in order.
    ///
    /// For facts no typed record carries yet: a test matches their category and text, never a
    /// rendered line with its time stamp.
    package func notes(in category: String) -> [(time: AirlinkInstant, text: String)] {
        compactMap { record in
            guard case .line(category, let text) = record.event else { return nil }
            return (record.time, text)
        }
    }
}
