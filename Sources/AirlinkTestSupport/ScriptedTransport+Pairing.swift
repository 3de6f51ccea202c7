import AirlinkCore

extension ScriptedTransport {
    /// How long a scripted pairing takes: an exchange or two on a 30 ms connection interval.
    static let pairingDuration: Duration = .milliseconds(60)

    /// Pairs as scripted: the next of the device's `pairingOutcomes`, or Just Works with a bond; with a bond
    /// from an earlier pairing, encrypts with it (no method). Takes ``pairingDuration``; a link lost meanwhile
    /// fails it with `linkLost`, a second pairing with `operationInProgress`.
    package func pair(
        _ id: DeviceID, features: PairingFeatures, agent: PairingAgent
    ) async throws(AirlinkError) -> PairingResult {
        try requirePower("pair with \(id)")
        guard let device = devices[id] else { throw AirlinkError(.deviceNotFound, "no device \(id) is known") }
        guard device.connected else { throw AirlinkError(.notConnected, "\(id) is not connected") }
        guard !device.pairing else {
            throw AirlinkError(.operationInProgress, "a pairing with \(id) is under way; wait for it")
        }
        record("pair \(features)")
        let generation = device.generation
        devices[id]!.pairing = true
        defer { devices[id]?.pairing = false }
        if let interruption = await waits.wait(id, .request, for: Self.pairingDuration) { throw interruption }
        guard devices[id]!.generation == generation, devices[id]!.connected else { throw Self.linkLost(id) }
        devices[id]!.pairings += 1
        let outcome: Result<PairingResult, AirlinkError>
        if !devices[id]!.pairingOutcomes.isEmpty {
            outcome = devices[id]!.pairingOutcomes.removeFirst()
        } else if let bond = devices[id]!.bond {
            outcome = .success(PairingResult(method: nil, level: bond.level, keySize: bond.keySize, bonded: true))
        } else {
            outcome = .success(PairingResult(method: .justWorks, level: .encrypted, keySize: 16, bonded: true))
        }
        if case .success(let result) = outcome {
            devices[id]!.securityLevel = result.level
            if result.bonded { devices[id]!.bond = result }
        }
        return try outcome.get()
    }

    /// Forgets this side's bond with the device.
    package func forgetBond(_ id: DeviceID) async { devices[id]?.bond = nil }

    /// The stack's bond changes outside `pair` (another tool paired, the keys were dropped): Just Works with a
    /// bond, or none, and ``/AirlinkCore/TransportEvent/bondChanged(_:bonded:)`` says so.
    package func changeBond(_ id: DeviceID, bonded: Bool) {
        devices[id]?.bond =
            bonded ? PairingResult(method: .justWorks, level: .encrypted, keySize: 16, bonded: true) : nil
        record("bond \(id) \(bonded)")
        emit(.bondChanged(id, bonded: bonded))
    }

    /// Scripts what the device's next pairings end with.
    package func setPairingOutcomes(_ id: DeviceID, _ outcomes: [Result<PairingResult, AirlinkError>]) {
        devices[id]?.pairingOutcomes = outcomes
    }

    /// How many pairings the device answered.
    package func pairingCount(_ id: DeviceID) -> Int { devices[id]?.pairings ?? 0 }

    /// The refusal an access earns on a link at `level`, as an ATT server checks it (Core Spec Vol 3, Part G,
    /// 8.1): Insufficient Authentication for a MITM requirement on a link without it, Insufficient Encryption for
    /// encryption on a link without it; `nil` otherwise.
    static func securityError(_ permissions: AttributePermissions, reading: Bool, level: LinkSecurityLevel)
        -> ATTError?
    {
        let authentication =
            reading
            ? permissions.contains(.readAuthenticationRequired)
            : permissions.contains(.writeAuthenticationRequired)
        let encryption =
            reading
            ? permissions.contains(.readEncryptionRequired)
            : permissions.contains(.writeEncryptionRequired)
        if authentication && !level.isAuthenticated { return .insufficientAuthentication }
        if (encryption || permissions.minimumKeySize != nil) && !level.isEncrypted { return .insufficientEncryption }
        return nil
    }
}
