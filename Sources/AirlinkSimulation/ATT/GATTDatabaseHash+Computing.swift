import AirlinkCore

extension GATTDatabaseHash {
    /// Computes the hash of an attribute table (Vol 3, Part G, 7.3), with swift-crypto's AES-CMAC.
    ///
    /// It lives here, beside the GATT server that serves the hash, rather than in AirlinkCore with the value: the
    /// layers only compare hashes, so an app that links them without the simulation does not build the cipher.
    ///
    /// - Parameter attributes: the server's attributes, every one of them, in any order: they are hashed in
    ///   handle order, and those the hash leaves out (characteristic values, other descriptors) are skipped.
    public init(attributes: some Sequence<Attribute>) {
        let message = Self.message(over: attributes)
        do {
            try self.init(bytes: AESCMAC.mac(key: AESCMAC.zeroKey, message: message))
        } catch {
            // AES-CMAC refuses only keys that are not 128, 192 or 256 bits long (the zero key is 128), and its MAC is
            // the 16 bytes a hash takes.
            preconditionFailure("AES-CMAC refused the 128-bit zero key: \(error.description)")
        }
    }
}
