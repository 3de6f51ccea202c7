import AirlinkCore
import Foundation

/// What a registry keeps of a bond: the security the pairing gave and when. The keys stay with the stack
/// (BlueZ keeps them in /var/lib/bluetooth; the virtual radio in memory): the record says that the app bonded,
/// so that it knows a reconnection encrypts without pairing, and `forget` drops it with the device.
///
/// ```json
/// "bond": { "level": 4, "keySize": 16, "bonded": 1767225600 }
/// ```
public struct BondRecord: Hashable, Sendable, Codable {
    /// The security level the pairing gave: 2 (encrypted), 3 (authenticated) or 4 (Secure Connections).
    public var level: LinkSecurityLevel
    /// The key's size in bytes, 7 to 16.
    public var keySize: Int
    /// When the devices bonded.
    public var bonded: RecordTimestamp

    /// Creates a record.
    public init(level: LinkSecurityLevel, keySize: Int, bonded: RecordTimestamp) {
        self.level = level
        self.keySize = keySize
        self.bonded = bonded
    }

    /// The record of a pairing's result.
    public init(_ result: PairingResult, at time: RecordTimestamp) {
        self.init(level: result.level, keySize: result.keySize, bonded: time)
    }

    private enum CodingKeys: String, CodingKey { case level, keySize, bonded }

    /// Decodes the form above; a level outside 2–4 or a key size outside 7–16 is refused naming the field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let number = try container.decode(Int.self, forKey: .level)
        guard let level = LinkSecurityLevel(rawValue: number), level.isEncrypted else {
            throw DecodingError.dataCorruptedError(
                forKey: .level, in: container, debugDescription: "\(number) is not a bond's level (2, 3 or 4)")
        }
        let keySize = try container.decode(Int.self, forKey: .keySize)
        guard AttributePermissions.keySizes.contains(keySize) else {
            throw DecodingError.dataCorruptedError(
                forKey: .keySize, in: container, debugDescription: "\(keySize) is not a key size from 7 to 16")
        }
        self.init(level: level, keySize: keySize, bonded: try container.decode(RecordTimestamp.self, forKey: .bonded))
    }

    /// Encodes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(level.rawValue, forKey: .level)
        try container.encode(keySize, forKey: .keySize)
        try container.encode(bonded, forKey: .bonded)
    }

    /// The record as compact JSON with sorted keys (what the SQLite registry keeps in its `bond` column).
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding numbers cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Reads the JSON ``jsonText`` writes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the field that does not decode.
    public init(jsonText: String) throws(AirlinkError) {
        do {
            self = try JSONDecoder().decode(BondRecord.self, from: Data(jsonText.utf8))
        } catch {
            throw AirlinkError(.invalidArgument, "bond.\(RegistryDocument.describe(error))")
        }
    }
}
