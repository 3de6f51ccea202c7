import AirlinkCore

/// A device as a user names it: an address with or without its type, or an opaque identifier;
/// resolved against the ids a registry and a transport know (``resolve(among:)``).
///
/// A record's key is the id as the transport reports it, address and type (Docs/Registry.md,
/// "Identity"): `C0:FF:EE:00:00:01` (public) and `C0:FF:EE:00:00:01/random` are different LE
/// identities. A user need not know the type: an address typed alone names the one known device
/// with that address, whatever its type.
public struct DeviceQuery: Hashable, Sendable, CustomStringConvertible {
    /// The id as typed; an address typed without a type is public here.
    public let id: DeviceID
    /// Whether the text gave an address type (`/public` or `/random`).
    public let namesType: Bool

    /// Parses `C0:FF:EE:00:00:01`, `C0:FF:EE:00:00:01/random`, `…/public` or `id:<identifier>`, as
    /// ``/AirlinkCore/DeviceID/init(parsing:)`` does, remembering whether a type was typed.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidDeviceID``, as ``/AirlinkCore/DeviceID/init(parsing:)`` does.
    public init(parsing text: String) throws(AirlinkError) {
        id = try DeviceID(parsing: text)
        namesType = id.address != nil && text.contains("/")
    }

    /// A query for exactly `id`, its type included.
    public init(exactly id: DeviceID) {
        self.id = id
        namesType = id.address != nil
    }

    /// The text typed, in normal form: `C0:FF:EE:00:00:01`, `C0:FF:EE:00:00:01/public`, ….
    public var description: String {
        namesType && id.addressType == .public ? "\(id)/public" : id.description
    }

    /// The device this query names among `known` (the ids a registry holds and a transport
    /// reports): the ids of `known` with the query's address decide.
    ///
    /// - A typed type names that id; if the address is known only with the other type, the query
    ///   is refused, naming the type the device has: no second record for one device.
    /// - An address alone names the one known id with that address, or the public id if none is
    ///   known; several are refused, listing them.
    /// - An opaque identifier names itself.
    ///
    /// - Parameter known: the ids known, in any order.
    /// - Returns: the id to connect to, look up or forget.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidDeviceID`` for a contradicted type or an ambiguous address.
    public func resolve(among known: some Sequence<DeviceID>) throws(AirlinkError) -> DeviceID {
        guard let address = id.address else { return id }
        var candidates: [DeviceID] = []
        for candidate in known where candidate.address == address && !candidates.contains(candidate) {
            candidates.append(candidate)
        }
        candidates.sort { $0.description.utf8.lexicographicallyPrecedes($1.description.utf8) }
        if candidates.isEmpty || candidates.contains(id) && namesType { return id }
        if namesType {
            // Only two types exist: the one candidate has the other.
            let real = candidates[0]
            let write = real.description == address.description ? "\(address)" : "\(real), or \(address) alone"
            throw AirlinkError(
                .invalidDeviceID,
                "\(self) names a \(id.addressType ?? .public) address, but the device at \(address) has a "
                    + "\(real.addressType ?? .public) address (known as \(real)); write \(write)")
        }
        guard candidates.count == 1 else {
            throw AirlinkError(
                .invalidDeviceID,
                "\(address) names several devices: \(candidates.map(\.description).joined(separator: ", ")); "
                    + "write the one you mean, with its type")
        }
        return candidates[0]
    }
}
