import AirlinkCore

/// A custom peripheral's scan response: what it answers an active scanner's scan request with (Core Spec Vol 6, Part
/// B, 4.4.2.3): a local name (typically the complete one the advertisement had no room for), service UUIDs and
/// manufacturer data, within the 31 bytes of legacy scan response data.
///
/// ```yaml
/// advertising:
///   localName: Sensor
///   scanResponse: {localName: "Sensor 0042 Kitchen", manufacturerData: {company: 0xFFFF, data: "a1b2"}}
/// ```
public struct ScenarioScanResponse: Sendable, Decodable {
    /// The local name it carries (complete).
    public var localName: String?
    /// The service UUIDs it carries.
    public var services: [ScenarioUUID]?
    /// The company identifier of its manufacturer data (Bluetooth SIG assigned), with ``manufacturerBytes``.
    public var company: UInt16?
    /// The bytes of its manufacturer data after the company identifier.
    public var manufacturerBytes: [UInt8]

    private enum CodingKeys: String, CodingKey, CaseIterable { case localName, services, manufacturerData }
    private enum ManufacturerKeys: String, CodingKey, CaseIterable { case company, data }

    /// Decodes `localName`, `services` and `manufacturerData: {company, data}` (data in hex); an unknown key is
    /// refused at its line, and so is a response that carries nothing.
    public init(from decoder: any Decoder) throws {
        try RecordingDecoding.rejectUnknownKeys(
            decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a scan response")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        localName = try container.decodeIfPresent(String.self, forKey: .localName)
        services = try container.decodeIfPresent([ScenarioUUID].self, forKey: .services)
        manufacturerBytes = []
        if container.contains(.manufacturerData) {
            let nested = try container.superDecoder(forKey: .manufacturerData)
            try RecordingDecoding.rejectUnknownKeys(
                nested, allowed: ManufacturerKeys.allCases.map(\.rawValue), in: "manufacturer data")
            let manufacturer = try nested.container(keyedBy: ManufacturerKeys.self)
            company = try manufacturer.decode(UInt16.self, forKey: .company)
            manufacturerBytes = try RecordingDecoding.bytes(.data, in: manufacturer, limit: 27)
        }
        guard localName != nil || !(services ?? []).isEmpty || company != nil else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath,
                    debugDescription: "a scan response carries something: write localName, services or "
                        + "manufacturerData"))
        }
    }

    /// The response as the advertisement a scanner receives (``/AirlinkCore/Advertisement/isScanResponse`` set).
    func advertisement(connectable: Bool) -> Advertisement? {
        let (name, uuids, company, bytes) = (localName, services?.map(\.uuid) ?? [], company, manufacturerBytes)
        return Advertising(connectable: connectable) {
        } scanResponse: {
            if let name { LocalName(name) }
            if !uuids.isEmpty { ServiceUUIDs(uuids) }
            if let company { ManufacturerData(company: company, bytes) }
        }.scanResponse
    }
}
