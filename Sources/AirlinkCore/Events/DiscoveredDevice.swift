/// A device a `Discovery` found: its latest advertisement and signal strength, and when it was seen.
public struct DiscoveredDevice: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The device's identity, to connect to it.
    public var id: DeviceID
    /// The latest advertisement received, completed with the latest scan response
    /// (``/AirlinkCore/Advertisement/merged(withScanResponse:)``).
    public var advertisement: Advertisement
    /// The name the device advertises: its complete name once one was heard (in a scan response, say),
    /// else the latest shortened one; kept when a later advertisement carries none.
    public var name: String?
    /// The RSSI of the latest advertisement, in dBm, if reported.
    public var rssi: Int?
    /// When the device was first seen matching the filters.
    public var firstSeen: AirlinkInstant
    /// When its latest advertisement arrived.
    public var lastSeen: AirlinkInstant
    /// How many advertisements of the device the discovery received since it matched (scan responses
    /// not counted).
    public var sightings: Int

    /// A device as a discovery saw it.
    package init(
        id: DeviceID, advertisement: Advertisement, name: String?, rssi: Int?, firstSeen: AirlinkInstant,
        lastSeen: AirlinkInstant, sightings: Int
    ) {
        self.id = id
        self.advertisement = advertisement
        self.name = name
        self.rssi = rssi
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.sightings = sightings
    }

    /// `C0:FF:EE:00:00:01 "Tracker 1" rssi=-60`.
    public var description: String {
        var text = id.description
        if let name { text += " \"\(name)\"" }
        if let rssi { text += " rssi=\(rssi)" }
        return text
    }
}
