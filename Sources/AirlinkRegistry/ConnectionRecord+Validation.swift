import AirlinkCore

extension ConnectionRecord {
    /// The longest opaque identifier a store accepts, in UTF-8 bytes.
    public static let maximumOpaqueIdentifierLength = 256
    /// The accepted lengths of a database hash, in bytes.
    public static let databaseHashLengths = 1...64

    /// The times a record may hold, in seconds since 1970: from 1970-01-01 to 9999-12-31 23:59:59
    /// UTC. A time outside (`1e308`, a negative one) is a damaged file, not a connection.
    public static let timestampRange: ClosedRange<Double> = 0...253_402_300_799
    /// The largest connection count a record holds, 2^53 − 1: every JSON reader reads it exactly,
    /// and ``recording(_:)`` stops counting there.
    public static let maximumConnectionCount = 1 << 53 - 1

    /// Checks that the record can be stored and connected to again; every repository calls it
    /// before saving and after loading.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidDeviceID`` for an id that cannot name a device (see
    ///   ``validate(_:)``); ``/AirlinkCore/AirlinkError/Code/invalidArgument``, naming the field, for a
    ///   connection count outside 1...``maximumConnectionCount``, a time outside
    ///   ``timestampRange`` (or not a number), a first connection after the last, a name that
    ///   ``sanitizedName(_:)`` would change, or a database hash of a length outside
    ///   ``databaseHashLengths``, or a cached database whose handles do not make one
    ///   (``CachedGATTDatabase/validate()``).
    public func validate() throws(AirlinkError) {
        try Self.validate(id)
        let context = "connection record of \(id)"
        guard (1...Self.maximumConnectionCount).contains(connectionCount) else {
            throw AirlinkError(
                .invalidArgument,
                "connectionCount \(connectionCount) is outside 1...\(Self.maximumConnectionCount); a record "
                    + "counts at least the connection that created it", context: context)
        }
        for (field, time) in [("firstConnected", firstConnected), ("lastConnected", lastConnected)] {
            guard Self.timestampRange.contains(time.secondsSince1970) else {
                throw AirlinkError(
                    .invalidArgument,
                    "\(field) \(time) is not a time between 1970 and 9999 (0 to 253402300799 seconds since 1970)",
                    context: context)
            }
        }
        guard firstConnected <= lastConnected else {
            throw AirlinkError(
                .invalidArgument, "firstConnected \(firstConnected) is after lastConnected \(lastConnected)",
                context: context)
        }
        if let name, name != Self.sanitizedName(name) {
            throw AirlinkError(
                .invalidArgument,
                "name \(name.debugDescription) holds control characters or is longer than "
                    + "\(Self.maximumNameLength) bytes; store ConnectionRecord.sanitizedName(name)", context: context)
        }
        if let databaseHash, !Self.databaseHashLengths.contains(databaseHash.count) {
            throw AirlinkError(
                .invalidArgument,
                "databaseHash takes 1 to 64 bytes (the GATT Database Hash takes 16), "
                    + "not \(databaseHash.count)", context: context)
        }
        do throws(AirlinkError) {
            try database?.validate()
        } catch {
            throw error.with(context: context)
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
