import AirlinkCore

extension ConnectionRecord {
    /// The longest opaque identifier a store accepts, in UTF-8 bytes.
    public static let maximumOpaqueIdentifierLength = 256
    /// The accepted lengths of a database hash, in bytes.
    public static let databaseHashLengths = 1...64

    /// Checks that the record can be stored and connected to again; every repository calls it
    /// before saving and after loading.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidDeviceID`` for an id that cannot name a device (see
    ///   ``validate(_:)``); ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a connection count below 1,
    ///   a time that is not finite, a first connection after the last, or a database hash of a
    ///   length outside ``databaseHashLengths``.
    public func validate() throws(AirlinkError) {
        try Self.validate(id)
        let context = "connection record of \(id)"
        guard connectionCount >= 1 else {
            throw AirlinkError(
                .invalidArgument,
                "connection count \(connectionCount) is below 1; a record counts at least "
                    + "the connection that created it", context: context)
        }
        guard firstConnected.secondsSince1970.isFinite, lastConnected.secondsSince1970.isFinite else {
            throw AirlinkError(
                .invalidArgument,
                "connection times must be finite numbers of seconds since 1970, not "
                    + "\(firstConnected) and \(lastConnected)", context: context)
        }
        guard firstConnected <= lastConnected else {
            throw AirlinkError(
                .invalidArgument, "first connection \(firstConnected) is after the last \(lastConnected)",
                context: context)
        }
        if let databaseHash, !Self.databaseHashLengths.contains(databaseHash.count) {
            throw AirlinkError(
                .invalidArgument,
                "a database hash takes 1 to 64 bytes (the GATT Database Hash takes 16), "
                    + "not \(databaseHash.count)", context: context)
        }
    }

    /// Checks that `id` can name a device to connect to again.
    ///
    /// Rejected: the all-zero address; a random address whose two top bits are `10`, reserved
    /// (Core Spec Vol 6, Part B, 1.3.2); an opaque identifier longer than
    /// ``maximumOpaqueIdentifierLength`` bytes or holding whitespace or control characters.
    ///
    /// - Parameter id: the device's id.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidDeviceID``, saying what is wrong with it.
    public static func validate(_ id: DeviceID) throws(AirlinkError) {
        switch id.kind {
        case .address(let address, let type):
            guard address != .zero else {
                throw AirlinkError(
                    .invalidDeviceID, "\(id) is not a device's address: 00:00:00:00:00:00 is never assigned")
            }
            if type == .random, address.randomAddressKind == .reserved {
                throw AirlinkError(
                    .invalidDeviceID,
                    "\(id) is not a valid random address: its two top bits, 10, are reserved "
                        + "(Core Spec Vol 6, Part B, 1.3.2); check the address and its type")
            }
        case .opaque(let identifier):
            guard identifier.utf8.count <= maximumOpaqueIdentifierLength else {
                throw AirlinkError(
                    .invalidDeviceID,
                    "an opaque device identifier takes at most \(maximumOpaqueIdentifierLength) bytes, "
                        + "not \(identifier.utf8.count)")
            }
            if let bad = identifier.unicodeScalars.first(where: {
                $0.properties.isWhitespace || $0.properties.generalCategory == .control
            }) {
                throw AirlinkError(
                    .invalidDeviceID,
                    "\(id.description.debugDescription) is not a device ID: it holds "
                        + "U+\(String(bad.value, radix: 16, uppercase: true)), a space or control character")
            }
        }
    }
}
