import AirlinkCore

extension ConnectionManager {
    /// The connection's pairing policy: what ``pair(features:agent:)`` offers by default, and whether refused
    /// operations pair and run once more.
    public nonisolated var pairingPolicy: PairingPolicy { client.security.policy }

    /// Replaces the pairing policy; it applies from the next pairing and the next refused operation.
    public nonisolated func setPairingPolicy(_ policy: PairingPolicy) { client.security.policy = policy }

    /// Pairs with the connected device, or encrypts the link again with the bond from an earlier pairing.
    ///
    /// A call while a pairing runs (the app's or the policy's) waits for it and returns its result. On success
    /// the connection reports ``/AirlinkCore/ConnectionEvent/paired(_:)`` and, when both sides bonded, the registry
    /// keeps the bond with the device's record. The link stays up whatever happens.
    ///
    /// ```swift
    /// let result = try await connection.pair(features: PairingFeatures(io: .keyboardOnly, mitm: true),
    ///                                        agent: .entering(123_456))  // what the user typed
    /// ```
    ///
    /// - Parameters:
    ///   - features: what the Pairing Request offers; the policy's by default.
    ///   - agent: who types and confirms for the user; the policy's by default.
    /// - Returns: the method (`nil` when the bond was used), the security level, the key size, whether bonded.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/pairingFailed`` (reported as
    /// ``/AirlinkCore/ConnectionEvent/pairingFailed(_:)``)
    ///   with the Pairing Failed reason; ``/AirlinkCore/AirlinkError/Code/bondLost`` when the device forgot the bond
    ///   (reported as ``/AirlinkCore/ConnectionEvent/bondLost``; the bond is forgotten here too, so call again to pair
    /// afresh);
    ///   ``/AirlinkCore/AirlinkError/Code/timeout`` after SMP's 30 s, or 40 s at most from the transport;
    ///   ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` on a transport that cannot pair;
    ///   ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a key size outside 7–16;
    ///   ``/AirlinkCore/AirlinkError/Code/notConnected``, ``/AirlinkCore/AirlinkError/Code/linkLost``,
    ///   ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``.
    @discardableResult
    public nonisolated func pair(
        features: PairingFeatures? = nil, agent: PairingAgent? = nil
    ) async throws(AirlinkError) -> PairingResult {
        let policy = client.security.policy
        return try await client.pair(features: features ?? policy.features, agent: agent ?? policy.agent)
    }
}
