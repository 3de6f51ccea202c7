import AirlinkCore

extension RadioPeripheral {
    /// How it answers pairing: the app's ``/AirlinkCore/PeripheralRoleSecurity`` when it stands for an app's
    /// peripheral role (its user is the app's agent, ``appAgent``), else its spec's security.
    var security: PeripheralSecurity {
        guard let role = host?.security else { return spec.security }
        return PeripheralSecurity(features: role.features, request: role.request)
    }

    /// The app's user when it stands for an app's peripheral role: answers at once, in place of the spec's
    /// ``/AirlinkCore/PeripheralUser``.
    var appAgent: PairingAgent? { host?.security.agent }
}
