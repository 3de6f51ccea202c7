import AirlinkCore

/// How the peripheral role pairs on BlueZ: bluetoothd runs SMP with centrals and asks the default agent; the
/// app's agent is that agent, and its questions are the role's pairing events.
extension BlueZPeripheral {
    /// Exports an `org.bluez.Agent1` at `<root>/agent` answering with `security.agent`, registers it with
    /// `AgentManager1.RegisterAgent` (`features.io` as its capability) and `RequestDefaultAgent` (bluetoothd asks
    /// the default agent when a central pairs with the adapter), and sets `Adapter1.Pairable` to
    /// `features.bonding` (bluetoothd's bondable mode).
    ///
    /// The agent's questions are reported: `RequestConfirmation` as
    /// ``/AirlinkCore/PeripheralEvent/pairingRequested(_:method:)`` by Numeric Comparison, `RequestPasskey` by
    /// passkey entry the central displays, `DisplayPasskey` by passkey entry the app displays,
    /// `RequestAuthorization` by Just Works; the agent refusing as `pairingFailed` (Numeric Comparison Failed,
    /// Passkey Entry Failed), bluetoothd's `Cancel` as `pairingFailed` without a
    /// reason; a central's `Device1.Paired` turning true as `paired`.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` for what bluetoothd takes from
    ///   /etc/bluetooth/main.conf or decides itself, not from D-Bus: a Security Request, out-of-band data,
    ///   Secure Connections off, a maximum key size under 16; ``/AirlinkCore/AirlinkError/Code/invalidArgument``
    ///   for a key size outside 7–16; what BlueZ answers.
    public func setSecurity(_ security: PeripheralRoleSecurity) async throws(AirlinkError) {
        let features = security.features
        guard AttributePermissions.keySizes.contains(features.maximumKeySize) else {
            throw AirlinkError(
                .invalidArgument, "a maximum key size is 7 to 16 bytes, not \(features.maximumKeySize)")
        }
        func unsupported(_ what: String) -> AirlinkError {
            AirlinkError(
                .operationNotSupported,
                "\(name) cannot \(what): bluetoothd takes it from /etc/bluetooth/main.conf or decides itself")
        }
        if security.request != nil { throw unsupported("send a Security Request when the app asks") }
        if features.hasOOBData { throw unsupported("pair with out-of-band data") }
        if !features.secureConnections { throw unsupported("turn Secure Connections off") }
        if features.maximumKeySize != 16 { throw unsupported("limit keys to \(features.maximumKeySize) bytes") }
        try checkNotEnded("set how \(name) pairs")
        let path = root + "/agent"
        let answering = BlueZPairingAgent(path: path, agent: security.agent)
        let wasExported = state.withLock { state in
            defer { state.agent = answering }
            return state.agent != nil
        }
        if wasExported {
            await callLoggingFailure(
                "org.bluez.AgentManager1", "UnregisterAgent", [.objectPath(path)], path: "/org/bluez",
                what: "unregister the agent")
        } else {
            do throws(DBusError) {
                try connection.export(path) { [weak self] message in
                    guard let self, let agent = self.state.withLock({ $0.agent }) else {
                        return .error(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no agent")
                    }
                    return self.answer(message, with: agent)
                }
            } catch {
                throw AirlinkError(.transportUnavailable, "cannot export the pairing agent: \(error)")
            }
        }
        if !state.withLock({ $0.watchingCentrals }) { try await watchCentrals() }
        try await call(
            "org.bluez.AgentManager1", "RegisterAgent",
            [.objectPath(path), .string(BlueZPairingAgent.capability(features.io))], path: "/org/bluez",
            what: "register the pairing agent")
        try await call(
            "org.bluez.AgentManager1", "RequestDefaultAgent", [.objectPath(path)], path: "/org/bluez",
            what: "make the pairing agent the default")
        try await call(
            "org.freedesktop.DBus.Properties", "Set",
            [.string(BlueZInterface.adapter), .string("Pairable"), .variant(.boolean(features.bonding))],
            what: "set the adapter's Pairable (bondable) to \(features.bonding)")
    }

    /// Answers bluetoothd's call with the app's agent, reporting the question and a refusal.
    func answer(_ message: DBusMessage, with agent: BlueZPairingAgent) -> DBusMethodReply {
        // try?: the device only names who asked in the report; the question is answered without it
        let device = (try? message.arguments())?.first?.string
        let asked: (method: PairingMethod, refusal: PairingFailureReason)? =
            switch message.member {
            case "RequestConfirmation": (.numericComparison, .numericComparisonFailed)
            case "RequestPasskey": (.passkeyEntry(.centralDisplays), .passkeyEntryFailed)
            case "DisplayPasskey": (.passkeyEntry(.peripheralDisplays), .passkeyEntryFailed)
            case "RequestAuthorization": (.justWorks, .pairingNotSupported)
            default: nil
            }
        if let asked, let device, let event = centrals.withLock({ $0.agentAsked(asked.method, device: device) }) {
            report(event)
        }
        let reply = agent.handle(message)
        if case .error = reply, let asked, let device {
            if let event = centrals.withLock({ $0.agentFailed(asked.refusal, device: device) }) { report(event) }
        }
        if message.member == "Cancel", let event = centrals.withLock({ $0.agentFailed(nil, device: nil) }) {
            report(event)
        }
        return reply
    }
}
