import AirlinkCore

extension GATTClient {
    /// Pairs with the device over the current link, or joins the pairing under way.
    ///
    /// Pairing does not take the link's ATT turn: SMP has a channel of its own (Core Spec Vol 3, Part H, 3.2).
    func pair(features: PairingFeatures, agent: PairingAgent) async throws(AirlinkError) -> PairingResult {
        if adapter.known != .poweredOn { try await adapter.requirePoweredOn("pair with \(device)") }
        _ = try requireLink("pair")
        return try await security.pair(features: features, agent: agent)
    }

    /// Whether the device refused for want of security that pairing can give: Insufficient Authentication (0x05)
    /// or Insufficient Encryption (0x0F).
    static func needsSecurity(_ error: AirlinkError) -> Bool {
        error.attError == .insufficientAuthentication || error.attError == .insufficientEncryption
    }

    /// An Insufficient Authentication or Encryption answer with a message that says how to pair; any other error
    /// as it is.
    func insufficientSecurity(_ error: AirlinkError) -> AirlinkError {
        guard Self.needsSecurity(error), let refusal = error.attError else { return error }
        return AirlinkError(
            error.code,
            "\(device) answered \(refusal): the value needs a paired (encrypted) link; call pair() on the "
                + "connection, or set PairingPolicy.pairWhenRefused to pair and retry by itself",
            cause: error.cause)
    }
}
