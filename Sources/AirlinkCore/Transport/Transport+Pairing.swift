/// Pairing and bonds, a capability of a ``Transport``: a stack that pairs implements
/// ``Transport/pair(_:features:agent:)``; one that cannot keeps this default, which refuses with
/// ``AirlinkError/Code/operationNotSupported``.
///
/// **Contract.** `pair` raises the security of a connected link: it pairs (the method from both sides' features,
/// Core Spec Vol 3, Part H, 2.3.5.1), or encrypts again with a bond from an earlier pairing (then
/// ``PairingResult/method`` is `nil`). It completes within SMP's 30 s (Vol 3, Part H, 3.4) plus the stack's own
/// margin, or fails with ``AirlinkError/Code/timeout``. Failures are typed: ``AirlinkError/Code/pairingFailed``
/// with the Pairing Failed reason when a side ended pairing (``AirlinkError/pairingFailureReason``, when the stack
/// says it); ``AirlinkError/Code/bondLost`` when the peer no longer has the bond this side holds;
/// ``AirlinkError/Code/operationInProgress`` while a pairing with the device runs;
/// ``AirlinkError/Code/notConnected``, ``AirlinkError/Code/linkLost``, ``AirlinkError/Code/adapterPoweredOff``;
/// ``AirlinkError/Code/invalidArgument`` for features no stack can offer (a key size outside 7–16).
/// The link stays up after a failed pairing.
extension Transport {
    /// Refuses: this transport does not pair.
    public func pair(
        _ device: DeviceID, features: PairingFeatures, agent: PairingAgent
    ) async throws(AirlinkError) -> PairingResult {
        throw AirlinkError(.operationNotSupported, "the \(name) transport cannot pair with \(device)")
    }
}
