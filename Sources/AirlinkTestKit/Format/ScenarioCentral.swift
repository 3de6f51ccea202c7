import AirlinkCore
import AirlinkSimulation

/// The link parameters the scenario's central asks for on every link (the Linux defaults when absent).
///
/// ```yaml
/// central: {interval: 45ms, latency: 2, supervisionTimeout: 2s, mtu: 100}
/// ```
public struct ScenarioCentral: Sendable, Decodable {
    /// The parameters, checked against the specification's ranges when the file is read.
    public var parameters: LinkParameters

    private enum CodingKeys: String, CodingKey { case interval, latency, supervisionTimeout, mtu, dataLength }

    /// Decodes the parameters; each key is optional and keeps its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var parameters = LinkParameters()
        if let interval = try container.decodeIfPresent(ScenarioDuration.self, forKey: .interval) {
            parameters.connectionInterval = interval.duration
        }
        if let latency = try container.decodeCount(.latency, in: 0...499, "a peripheral latency") {
            parameters.peripheralLatency = latency
        }
        if let timeout = try container.decodeIfPresent(ScenarioDuration.self, forKey: .supervisionTimeout) {
            parameters.supervisionTimeout = timeout.duration
        }
        if let mtu = try container.decodeCount(.mtu, in: 23...517, "an ATT MTU") { parameters.requestedMTU = mtu }
        if let length = try container.decodeCount(.dataLength, in: 27...251, "a data length in bytes") {
            parameters.dataLength = length
        }
        do {
            try parameters.validate()
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath, debugDescription: error.message))
        }
        self.parameters = parameters
    }
}
