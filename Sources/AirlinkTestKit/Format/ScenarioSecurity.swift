import AirlinkCore

/// How a custom peripheral answers pairing (`security:`), or what a client's `pair:` offers: IO capabilities,
/// MITM, bonding, Secure Connections, a maximum key size and a passkey (Docs/Security.md).
///
/// ```yaml
/// security: {io: display-only, mitm: true, passkey: 123456}          # a peripheral
/// security: {request: {mitm: true}}                                   # one that sends a Security Request
/// pair: {at: 2s, io: keyboard-only, mitm: true, passkey: 123456}     # a client: types 123456
/// ```
public struct ScenarioSecurity: Sendable, Decodable {
    /// What the side offers.
    public var features: PairingFeatures
    /// A peripheral's: the passkey it shows; a client's: the passkey its user types (what the peer shows when
    /// absent).
    public var passkey: UInt32?
    /// A peripheral's: the Pairing Failed reason it answers every request with (`pairing-not-supported`, `0x05`).
    public var refuse: PairingFailureReason?
    /// A peripheral's: the Security Request it sends after each link's setup (`request: {mitm: true}`; its
    /// `bonding` and `secureConnections` default to true, `mitm` to false).
    public var request: SecurityRequest?
    /// A client's: when it pairs.
    public var at: ScenarioDuration?

    private enum CodingKeys: String, CodingKey {
        case io, mitm, bonding, secureConnections, maximumKeySize, passkey, refuse, request, at
    }

    private enum RequestKeys: String, CodingKey {
        case bonding, mitm, secureConnections
    }

    /// Decodes the fields; an unknown IO capability or reason, a key size outside 7–16 or a passkey over six
    /// digits is refused at its line.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let ioName = try container.decodeIfPresent(String.self, forKey: .io) ?? "no-input-no-output"
        guard let io = IOCapability.allCases.first(where: { $0.description == ioName.kebabCased }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .io, in: container,
                debugDescription: "expected an IO capability ("
                    + IOCapability.allCases.map(\.description).joined(separator: ", ") + "), found '\(ioName)'")
        }
        features = PairingFeatures(
            io: io, bonding: try container.decodeIfPresent(Bool.self, forKey: .bonding) ?? true,
            mitm: try container.decodeIfPresent(Bool.self, forKey: .mitm) ?? false,
            secureConnections: try container.decodeIfPresent(Bool.self, forKey: .secureConnections) ?? true,
            maximumKeySize: try container.decodeCount(.maximumKeySize, in: 7...16, "a key size in bytes") ?? 16)
        passkey = try container.decodeCount(.passkey, in: 0...999_999, "a six-digit passkey").map(UInt32.init)
        if let text = try container.decodeIfPresent(String.self, forKey: .refuse) {
            let code = text.hasPrefix("0x") ? UInt8(text.dropFirst(2), radix: 16) : UInt8(text)
            let named = (1...15).map { PairingFailureReason(rawValue: $0) }.first { $0.slug == text.kebabCased }
            guard let reason = named ?? code.map(PairingFailureReason.init(rawValue:)) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .refuse, in: container,
                    debugDescription:
                        "expected a Pairing Failed reason (pairing-not-supported, 0x05...), found '\(text)'")
            }
            refuse = reason
        }
        if container.contains(.request) {
            // A request holds its three booleans only: anything else (a `pin`) is refused, never ignored.
            try RecordingDecoding.rejectUnknownKeys(
                try container.superDecoder(forKey: .request), allowed: ["bonding", "mitm", "secureConnections"],
                in: "a security request")
            let fields = try container.nestedContainer(keyedBy: RequestKeys.self, forKey: .request)
            request = SecurityRequest(
                bonding: try fields.decodeIfPresent(Bool.self, forKey: .bonding) ?? true,
                mitm: try fields.decodeIfPresent(Bool.self, forKey: .mitm) ?? false,
                secureConnections: try fields.decodeIfPresent(Bool.self, forKey: .secureConnections) ?? true)
        }
        at = try container.decodeIfPresent(ScenarioDuration.self, forKey: .at)
    }

    /// The peripheral's security this declares.
    var peripheralSecurity: PeripheralSecurity {
        PeripheralSecurity(features: features, passkey: passkey, refusal: refuse, request: request)
    }

    /// The client's user: types ``passkey`` if given, else what the peer shows; confirms numbers.
    var agent: PairingAgent { passkey.map(PairingAgent.entering) ?? .attentive }
}

extension PairingFailureReason {
    /// `pairing-not-supported`: the name, lowercased, words joined by hyphens.
    fileprivate var slug: String {
        String(name.lowercased().map { $0 == " " ? "-" : $0 })
    }
}
