import AirlinkCore

extension BlueZTransport {
    /// Pairs through `org.bluez.Device1.Pair` (BlueZ's bluetoothd runs SMP and keeps the keys in
    /// /var/lib/bluetooth), waiting ``Configuration/pairingTimeout`` at most.
    ///
    /// BlueZ does not say how the devices paired nor the link's level on D-Bus: the method is the one the agent's
    /// questions give away (`BlueZPairingMethodObserver`: none is Just Works at level 2, passkey entry level 3,
    /// numeric comparison level 4), bonded as BlueZ's `Bonded` property says, 16-byte key. A device already paired
    /// (its `Paired` property, or `AlreadyExists`) is reported as encrypted with the bond (no method), without
    /// `Pair`: bluetoothd encrypts with the bond by itself when the device asks for security. For the pairing, an
    /// `org.bluez.Agent1` answering with `agent` is exported and registered with `AgentManager1` with `features.io`
    /// as its capability (`BlueZPairingAgent`); bluetoothd asks it for passkeys and confirmations.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/pairingFailed`` for `AuthenticationFailed`,
    ///   `AuthenticationCanceled` and `AuthenticationRejected` (cause `.bluez`, no SMP reason: BlueZ does not give
    ///   it); ``/AirlinkCore/AirlinkError/Code/timeout`` for `AuthenticationTimeout` and past the deadline;
    ///   ``/AirlinkCore/AirlinkError/Code/linkLost`` for `ConnectionAttemptFailed` and a link lost meanwhile;
    ///   ``/AirlinkCore/AirlinkError/Code/operationInProgress``; ``/AirlinkCore/AirlinkError/Code/invalidArgument``
    ///   for a key size outside 7–16; ``/AirlinkCore/AirlinkError/Code/notConnected``,
    ///   ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``.
    public func pair(
        _ device: DeviceID, features: PairingFeatures, agent: PairingAgent
    ) async throws(AirlinkError) -> PairingResult {
        guard AttributePermissions.keySizes.contains(features.maximumKeySize) else {
            throw AirlinkError(
                .invalidArgument, "a maximum key size is 7 to 16 bytes, not \(features.maximumKeySize)")
        }
        let context = "pair with \(device)"
        let path = try devicePath(device)
        // A device already paired is encrypted with the bond, without Device1.Pair: bluetoothd 5.66 answers Pair on
        // a device bonded over LE by pairing over BR/EDR, which an LE-only device or adapter refuses
        // (AuthenticationFailed; seen on the real stack, Docs/RealAdapter.md). AlreadyExists comes only when both
        // bearers are bonded.
        let bond = try state.withLock { state throws(AirlinkError) -> Bool? in
            try checkReady(state, path: path, device: device, context: context)
            guard state.tree.properties(path, BlueZInterface.device)?["Paired"]?.bool == true else { return nil }
            return state.tree.properties(path, BlueZInterface.device)?["Bonded"]?.bool ?? true
        }
        if let bonded = bond { return PairingResult(method: nil, level: .encrypted, keySize: 16, bonded: bonded) }
        let observer = BlueZPairingMethodObserver()
        let agentPath = try await registerAgent(agent, io: features.io, observer: observer, context: context)
        defer { unregisterAgent(agentPath) }
        do throws(AirlinkError) {
            _ = try await pendingCall(context: context, operation: .pair, timeout: configuration.pairingTimeout) {
                (state) throws(AirlinkError) -> (DBusMessage, String) in
                try checkReady(state, path: path, device: device, context: context)
                do throws(DBusError) {
                    let message = try DBusMessage.methodCall(
                        destination: BlueZInterface.service, path: path, interface: BlueZInterface.device,
                        member: "Pair")
                    return (message, path)
                } catch {
                    throw BlueZErrorMapping.map(error, operation: .pair, context: context)
                }
            }
        } catch {
            guard case .bluez(let name, _) = error.cause, name == "org.bluez.Error.AlreadyExists" else { throw error }
            return PairingResult(method: nil, level: .encrypted, keySize: 16, bonded: true)
        }
        let bonded = state.withLock { $0.tree.properties(path, BlueZInterface.device)?["Bonded"]?.bool } ?? true
        return observer.result(bonded: bonded)
    }

    /// Exports an `org.bluez.Agent1` answering with `agent` and registers it with `AgentManager1`, so that
    /// bluetoothd asks it during this client's `Pair`.
    private func registerAgent(
        _ agent: PairingAgent, io: IOCapability, observer: BlueZPairingMethodObserver, context: String
    ) async throws(AirlinkError) -> String {
        let number = state.withLock { state -> UInt64 in
            state.nextOperation += 1
            return state.nextOperation
        }
        let path = "/org/airlink/agent\(number)"
        let answering = BlueZPairingAgent(path: path, agent: agent)
        do throws(DBusError) {
            try connection.export(path) { message in
                let reply = answering.handle(message)
                observer.note(message.member, answered: reply)
                return reply
            }
        } catch {
            throw BlueZErrorMapping.map(error, operation: .pair, context: context)
        }
        do throws(AirlinkError) {
            _ = try await callBlueZ(
                path: "/org/bluez", interface: "org.bluez.AgentManager1", member: "RegisterAgent",
                arguments: [.objectPath(path), .string(BlueZPairingAgent.capability(io))], operation: .pair,
                context: context)
        } catch {
            connection.unexport(path)
            throw error
        }
        return path
    }

    /// Unregisters and stops exporting the agent (without waiting for BlueZ's answer).
    private func unregisterAgent(_ path: String) {
        connection.unexport(path)
        // try?: methodCall throws only for an invalid name or path; these are constants and paths from BlueZ's tree
        if let message = try? DBusMessage.methodCall(
            destination: BlueZInterface.service, path: "/org/bluez", interface: "org.bluez.AgentManager1",
            member: "UnregisterAgent", arguments: [.objectPath(path)])
        {
            _ = connection.send(message, timeout: configuration.operationTimeout) { _ in }
        }
    }

    /// Forgets the bond through `Adapter1.RemoveDevice` (as `bluetoothctl remove`): bluetoothd keeps a bond in
    /// /var/lib/bluetooth until then, and D-Bus has no narrower call. BlueZ forgets the device with it (its
    /// cached services go, a link drops; scan again to find it).
    ///
    /// Waits ``Configuration/operationTimeout`` at most for BlueZ's answer; a device BlueZ does not know, an
    /// adapter off, an error or no answer leave nothing to do (the protocol's `forgetBond` does not fail).
    public func forgetBond(_ device: DeviceID) async {
        do throws(AirlinkError) {
            try await forget(device)
        } catch {
            return
        }
    }
}
