import AirlinkCore

extension DeviceRecording {
    /// The address a recording redacted with `address` carries: 00:00:5E:00:53:01, from the range RFC 7042
    /// sets aside for documentation.
    public static let redactedAddress: DeviceID = "00:00:5E:00:53:01"

    /// A copy with the redactions applied to the recording and to its capture: values keep their length,
    /// so that a replay still decodes them.
    ///
    /// - Parameters:
    ///   - redactions: what to replace.
    ///   - capture: the raw capture the recording came from.
    public func redacted(_ redactions: [RecordingOptions.Redaction], capture: RecordingCapture)
        -> (DeviceRecording, RecordingCapture)
    {
        var recording = self
        var capture = capture
        var replacements: [ATTHandle: UInt8] = [:]
        for redaction in redactions {
            let (uuid, filler): (BluetoothUUID, UInt8) =
                switch redaction {
                case .address: (.systemID, 0x00)
                case .serial: (.serialNumberString, 0x30)
                case .uuid(let uuid): (uuid, 0x00)
                }
            for characteristic in database.services.flatMap(\.characteristics) where characteristic.uuid == uuid {
                replacements[characteristic.valueHandle] = filler
            }
            if redaction == .address { recording.id = Self.redactedAddress }
            recording.redacted.append(redaction.description)
        }
        guard !replacements.isEmpty else { return (recording, capture) }
        func blank(_ bytes: [UInt8], _ handle: ATTHandle) -> [UInt8] {
            replacements[handle].map { [UInt8](repeating: $0, count: bytes.count) } ?? bytes
        }
        for s in recording.database.services.indices {
            for c in recording.database.services[s].characteristics.indices {
                let characteristic = recording.database.services[s].characteristics[c]
                if case .bytes(let bytes) = characteristic.value {
                    recording.database.services[s].characteristics[c].value = .bytes(
                        blank(bytes, characteristic.valueHandle))
                }
            }
        }
        for n in recording.session.notifications.indices {
            let notification = recording.session.notifications[n]
            recording.session.notifications[n].value = blank(notification.value, notification.handle)
        }
        for w in recording.session.writes.indices {
            let write = recording.session.writes[w]
            recording.session.writes[w].value = blank(write.value, write.handle)
            for f in write.followed.indices {
                recording.session.writes[w].followed[f].value = blank(write.followed[f].value, write.followed[f].handle)
            }
        }
        for r in recording.session.reads.indices {
            let read = recording.session.reads[r]
            if case .bytes(let bytes) = read.value {
                recording.session.reads[r].value = .bytes(blank(bytes, read.handle))
            }
        }
        for e in capture.entries.indices {
            guard let raw = capture.entries[e].handle, let filler = replacements[ATTHandle(raw)],
                let hex = capture.entries[e].bytes
            else { continue }
            capture.entries[e].bytes = String(
                repeating: GATTValueFormat.hexText([filler], prefixed: false), count: hex.count / 2)
        }
        return (recording, capture)
    }
}
