import AirlinkCore
import Foundation

/// The raw capture a recording is made from: every observation of the transport in order, with its time
/// from the recording's start. Written beside the YAML as JSON Lines (``jsonLines``), one object per line.
public struct RecordingCapture: Sendable, Hashable {
    /// The observations, in the order the recorder made them.
    public var entries: [Entry]

    /// Creates a capture.
    public init(entries: [Entry] = []) { self.entries = entries }

    /// One observation.
    public struct Entry: Sendable, Hashable, Codable {
        /// When, in microseconds from the recording's start.
        public var micros: Int64
        /// What: `advertisement`, `connected`, `service`, `characteristic`, `descriptor`, `read`, `write`,
        /// `subscribed`, `notification`, `disconnected`.
        public var kind: String
        /// The handle concerned (a service's first handle, a characteristic's value handle).
        public var handle: UInt16?
        /// The UUID discovered.
        public var uuid: String?
        /// The bytes read, written, notified or advertised, in hex.
        public var bytes: String?
        /// The ATT error of a failed read or write.
        public var attError: UInt8?
        /// Further details: RSSI, properties, the end of a service's range.
        public var detail: String?

        /// Creates an entry.
        public init(
            micros: Int64, kind: String, handle: UInt16? = nil, uuid: String? = nil, bytes: [UInt8]? = nil,
            attError: UInt8? = nil, detail: String? = nil
        ) {
            self.micros = micros
            self.kind = kind
            self.handle = handle
            self.uuid = uuid
            self.bytes = bytes.map { GATTValueFormat.hexText($0, prefixed: false) }
            self.attError = attError
            self.detail = detail
        }
    }

    /// One JSON object per line, keys sorted.
    public var jsonLines: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return entries.map { entry in
            // try?: an entry holds numbers, strings and byte arrays, which always encode
            (try? encoder.encode(entry)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
        }.joined(separator: "\n") + "\n"
    }
}
