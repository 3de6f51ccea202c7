import AirlinkCore

extension ATTServer {
    /// The error a read of `attribute` earns on this link, or `nil` if it may be read
    /// (Core Spec Vol 3, Part F, 4; Vol 3, Part G, 8.1).
    func readError(_ attribute: GATTAttribute) -> ATTError? {
        let permissions = attribute.permissions
        if !permissions.contains(.readable) { return .readNotPermitted }
        if permissions.contains(.readAuthenticationRequired) && !securityLevel.isAuthenticated {
            return .insufficientAuthentication
        }
        if let error = encryptionError(permissions, required: permissions.contains(.readEncryptionRequired)) {
            return error
        }
        if permissions.contains(.readAuthorizationRequired) && !isAuthorized { return .insufficientAuthorization }
        return nil
    }

    /// The error a write to `attribute` earns on this link, or `nil` if it may be written.
    func writeError(_ attribute: GATTAttribute) -> ATTError? {
        let permissions = attribute.permissions
        if !permissions.contains(.writable) { return .writeNotPermitted }
        if permissions.contains(.writeAuthenticationRequired) && !securityLevel.isAuthenticated {
            return .insufficientAuthentication
        }
        if let error = encryptionError(permissions, required: permissions.contains(.writeEncryptionRequired)) {
            return error
        }
        if permissions.contains(.writeAuthorizationRequired) && !isAuthorized { return .insufficientAuthorization }
        return nil
    }

    /// Insufficient Encryption when the access needs encryption (`required`, or a minimum key size) and the link
    /// has none; Insufficient Encryption Key Size when its key is shorter than the attribute's minimum.
    private func encryptionError(_ permissions: AttributePermissions, required: Bool) -> ATTError? {
        let minimumKeySize = permissions.minimumKeySize
        if (required || minimumKeySize != nil) && !securityLevel.isEncrypted { return .insufficientEncryption }
        if let minimumKeySize, encryptionKeySize < minimumKeySize { return .insufficientEncryptionKeySize }
        return nil
    }

    /// The value a client reads: the per-connection CCCD or Client Supported Features, a provider's answer, or
    /// the stored value.
    func currentValue(_ attribute: GATTAttribute) -> [UInt8] {
        if case .cccd = attribute.role {
            let bits = cccdValues[attribute.handle] ?? 0
            return [UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8)]
        }
        if attribute.handle == database.clientSupportedFeaturesHandle { return clientSupportedFeaturesValue }
        if let provider = valueProviders[attribute.handle] { return provider(attribute.handle) }
        return attribute.value
    }
}
