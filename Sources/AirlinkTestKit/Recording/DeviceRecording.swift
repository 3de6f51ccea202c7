import AirlinkCore

/// A device recorded through a ``/AirlinkCore/Transport``: how it advertised, its GATT database with the
/// values read once, and what it notified while watched.
///
/// ``DeviceRecorder`` makes one; ``yaml`` writes it in the scenario world format (a peripheral entry a user
/// reads and edits), ``load(path:)`` and ``parse(_:source:)`` read it back, and ``peripheralSpec(replay:)``
/// turns it into a peripheral the virtual radio serves (Docs/RecordReplay.md).
public struct DeviceRecording: Sendable, Hashable {
    /// The format's version, written as `recording: 1`.
    public static let formatVersion = 1

    /// The device's name: its Device Name (0x2A00) when it could be read, else the advertised name.
    public var name: String
    /// The device's address (a documentation address once redacted).
    public var id: DeviceID
    /// The transport it was recorded on (`sim`, `bluez:hci0`).
    public var transport: String
    /// How it advertised; `nil` when no advertisement was reported.
    public var advertising: RecordedAdvertising?
    /// Its GATT database.
    public var database: RecordedDatabase
    /// What it sent while watched.
    public var session: RecordedSession
    /// What was redacted (`address`, `serial`, UUIDs), so that a reader knows which values are not the device's.
    public var redacted: [String]

    /// Creates a recording.
    public init(
        name: String, id: DeviceID, transport: String, advertising: RecordedAdvertising?,
        database: RecordedDatabase, session: RecordedSession, redacted: [String] = []
    ) {
        self.name = name
        self.id = id
        self.transport = transport
        self.advertising = advertising
        self.database = database
        self.session = session
        self.redacted = redacted
    }
}
