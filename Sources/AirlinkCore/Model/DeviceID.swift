/// The identity of a remote device: a BD_ADDR with its address type, or an opaque identifier from a
/// stack that hides addresses.
///
/// Written forms, as printed, parsed and encoded in JSON:
///
/// | Identity | Written |
/// |---|---|
/// | public address | `C0:FF:EE:00:00:01` (`C0:FF:EE:00:00:01/public` is accepted too) |
/// | random address | `C0:FF:EE:00:00:01/random` |
/// | opaque identifier | `id:` then the identifier, `id:6F1A0C2E-0D7E-4E7A-9B6B-1D2C3E4F5A6B` |
///
/// The `id:` prefix keeps a mistyped address from being taken for an opaque identifier.
/// Addresses follow Core Spec Vol 6, Part B, 1.3.
public struct DeviceID: Hashable, Sendable, StringCodable, LosslessStringConvertible, ExpressibleByStringLiteral {
    /// What identifies the device.
    public enum Kind: Hashable, Sendable {
        /// A BD_ADDR and whether it is public or random.
        case address(BDAddress, AddressType)
        /// An identifier the stack gives instead of an address; never empty.
        case opaque(String)
    }

    /// What identifies the device.
    public let kind: Kind

    /// The prefix of an opaque identifier's written form.
    public static let opaquePrefix = "id:"

    private init(kind: Kind) { self.kind = kind }

    /// Identifies a device by its address.
    ///
    /// - Parameters:
    ///   - address: the device's BD_ADDR.
    ///   - type: whether the address is public or random.
    public init(_ address: BDAddress, type: AddressType = .public) {
        kind = .address(address, type)
    }

    /// Identifies a device by an identifier its stack gives instead of an address.
    ///
    /// - Parameter identifier: the identifier, without the `id:` prefix.
    /// - Throws: ``AirlinkError/Code/invalidDeviceID`` if the identifier is empty.
    public init(opaque identifier: String) throws(AirlinkError) {
        guard !identifier.isEmpty else {
            throw AirlinkError(.invalidDeviceID, "an opaque device identifier must not be empty")
        }
        kind = .opaque(identifier)
    }

    /// The device's BD_ADDR, or `nil` for an opaque identifier.
    public var address: BDAddress? {
        if case .address(let address, _) = kind { return address }
        return nil
    }

    /// Whether the address is public or random, or `nil` for an opaque identifier.
    public var addressType: AddressType? {
        if case .address(_, let type) = kind { return type }
        return nil
    }

    /// The kind of random address (static, resolvable or non-resolvable private), or `nil` unless the
    /// device is identified by a random address (Core Spec Vol 6, Part B, 1.3.2).
    public var randomAddressKind: RandomAddressKind? {
        if case .address(let address, .random) = kind { return address.randomAddressKind }
        return nil
    }

    /// The opaque identifier, without its `id:` prefix, or `nil` for an address.
    public var opaqueIdentifier: String? {
        if case .opaque(let identifier) = kind { return identifier }
        return nil
    }

    /// Parses `C0:FF:EE:00:00:01`, `C0:FF:EE:00:00:01/public`, `C0:FF:EE:00:00:01/random` or `id:<identifier>`.
    ///
    /// The address may use either case and colons or hyphens, as ``BDAddress/init(parsing:)`` accepts;
    /// the suffix may use either case.
    ///
    /// - Parameter text: the written identity.
    /// - Throws: ``AirlinkError/Code/invalidDeviceID``, naming the string and what is wrong with it.
    public init(parsing text: String) throws(AirlinkError) {
        let forms = "write C0:FF:EE:00:00:01 (public), C0:FF:EE:00:00:01/random, or id:<identifier>"
        if text.hasPrefix(Self.opaquePrefix) {
            let identifier = String(text.dropFirst(Self.opaquePrefix.count))
            guard !identifier.isEmpty else {
                throw AirlinkError(
                    .invalidDeviceID, "\"\(text)\" is not a device ID: the identifier after id: is empty")
            }
            self.init(kind: .opaque(identifier))
            return
        }
        var addressText = Substring(text)
        var type = AddressType.public
        if let slash = text.lastIndex(of: "/") {
            let suffix = text[text.index(after: slash)...]
            guard let parsed = AddressType(rawValue: suffix.lowercased()) else {
                throw AirlinkError(
                    .invalidDeviceID,
                    "\"\(text)\" is not a device ID: the address type \"\(suffix)\" is neither public nor random; "
                        + forms)
            }
            type = parsed
            addressText = text[..<slash]
        }
        let address: BDAddress
        do {
            address = try BDAddress(parsing: String(addressText))
        } catch {
            // The address's own message says why after naming the text again: say it once.
            let repeated = "\"\(addressText)\" is not a Bluetooth device address: "
            let why =
                error.message.hasPrefix(repeated) ? String(error.message.dropFirst(repeated.count)) : error.message
            throw AirlinkError(
                .invalidDeviceID,
                "\"\(text)\" is not a device ID: \(why); or, for another stack's identifier, write id:<identifier>",
                cause: .underlying(error))
        }
        self.init(address, type: type)
    }

    /// Parses a device ID as ``init(parsing:)`` does, returning `nil` on failure.
    ///
    /// Pass a `String` value: with a literal argument, `DeviceID("...")` is literal coercion and calls
    /// ``init(stringLiteral:)``, which traps on a bad literal.
    public init?(_ description: String) {
        // try?: LosslessStringConvertible's init? has no error to give; init(parsing:) is the one that says why
        guard let id = try? DeviceID(parsing: description) else { return nil }
        self = id
    }

    /// Parses a device ID written in source, such as `"C0:FF:EE:00:00:01/random"`.
    ///
    /// - Precondition: the literal is a valid device ID; a bad literal is a programming error.
    public init(stringLiteral value: String) {
        do {
            try self.init(parsing: value)
        } catch {
            preconditionFailure(error.description)
        }
    }

    /// `C0:FF:EE:00:00:01`, `C0:FF:EE:00:00:01/random` or `id:<identifier>`.
    public var description: String {
        switch kind {
        case .address(let address, .public): address.description
        case .address(let address, .random): "\(address)/random"
        case .opaque(let identifier): Self.opaquePrefix + identifier
        }
    }
}
