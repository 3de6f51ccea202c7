import AirlinkCore

/// What ``DeviceRecorder`` captures and how long: the advertising window, the session, which
/// characteristics to subscribe to, writes that drive the device, and what to redact.
public struct RecordingOptions: Sendable, Hashable {
    /// How long advertisements are collected before connecting (2 s by default).
    public var advertisingWindow: Duration
    /// How long notifications are collected after subscribing (60 s by default).
    public var duration: Duration
    /// Which characteristics are subscribed to.
    public var subscribe: Subscription
    /// Writes made after discovery and subscribing, before the values are read, in order, to drive the device
    /// (turn a sensor on); each is recorded with its answer and what followed within ``writeWindow``.
    public var writes: [Write]
    /// What is replaced in the recording before it is written.
    public var redactions: [Redaction]
    /// How long the connection may take.
    public var connectTimeout: Duration
    /// How long after each write's answer the notifications that arrive belong to the write (1 s by default): a
    /// replay sends them after the same write.
    public var writeWindow: Duration
    /// How often every readable characteristic outside 0x1800 and 0x1801 is read again while watching; `nil` (the
    /// default) reads once.
    public var readInterval: Duration?

    /// Which characteristics a recording subscribes to.
    public enum Subscription: Sendable, Hashable {
        /// Every characteristic that notifies or indicates, outside the Generic Access and Generic Attribute
        /// services.
        case all
        /// The characteristics with these UUIDs.
        case uuids([BluetoothUUID])
    }

    /// The longest value a write may carry, 512 bytes: the replay's limit (``DeviceRecording/load(path:)``)
    /// and the attribute value's (Core Spec Vol 3, Part F, 3.2.9).
    public static let maximumWriteLength = PeripheralSpec.maximumValueLength

    /// A write to the first characteristic with `uuid` (with response).
    public struct Write: Sendable, Hashable {
        /// The characteristic's UUID.
        public var uuid: BluetoothUUID
        /// The bytes written.
        public var value: [UInt8]

        /// Creates a write.
        public init(uuid: BluetoothUUID, value: [UInt8]) {
            self.uuid = uuid
            self.value = value
        }
    }

    /// Something a recording must not carry as it is.
    public enum Redaction: Sendable, Hashable, CustomStringConvertible {
        /// The device's address (replaced by a documentation address, RFC 7042's 00:00:5E:00:53:01) and the
        /// System ID (0x2A23), which is derived from it on many devices (replaced by zeros).
        case address
        /// The Serial Number String (0x2A25): each byte replaced by `0` (0x30), the length kept.
        case serial
        /// The values of the characteristics with this UUID, in reads and notifications: zeros, the length kept.
        case uuid(BluetoothUUID)

        /// `address`, `serial`, or the UUID.
        public var description: String {
            switch self {
            case .address: "address"
            case .serial: "serial"
            case .uuid(let uuid): uuid.description
            }
        }

        /// Parses `address`, `serial` or a UUID.
        ///
        /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming what to write.
        public init(parsing text: String) throws(AirlinkError) {
            switch text.lowercased() {
            case "address": self = .address
            case "serial": self = .serial
            default:
                guard let uuid = BluetoothUUID(text) else {
                    throw AirlinkError(
                        .invalidArgument,
                        "\"\(text)\" is nothing to redact: write address, serial or a characteristic UUID such as 2A25")
                }
                self = .uuid(uuid)
            }
        }
    }

    /// Creates options.
    public init(
        advertisingWindow: Duration = .seconds(2), duration: Duration = .seconds(60), subscribe: Subscription = .all,
        writes: [Write] = [], redactions: [Redaction] = [], connectTimeout: Duration = .seconds(10),
        readInterval: Duration? = nil, writeWindow: Duration = .seconds(1)
    ) {
        self.writeWindow = writeWindow
        self.readInterval = readInterval
        self.advertisingWindow = advertisingWindow
        self.duration = duration
        self.subscribe = subscribe
        self.writes = writes
        self.redactions = redactions
        self.connectTimeout = connectTimeout
    }
}
