/// The GATT Database Hash: a 128-bit fingerprint of a server's attribute layout (Core Spec Vol 3, Part G, 7.3).
///
/// A client that cached a server's services reads the Database Hash characteristic (0x2B2A) on reconnection: the
/// same hash means the same handles, types and declarations, so the cache can be used without rediscovery
/// (Part G, 2.5.2 "Attribute Caching"). The hash is AES-CMAC (RFC 4493) with a key of 16 zero bytes over the
/// concatenation, in handle order, of:
///
/// - handle, type and value of every primary service (0x2800), secondary service (0x2801), include (0x2802),
///   characteristic declaration (0x2803) and Characteristic Extended Properties descriptor (0x2900);
/// - handle and type only of every Characteristic User Description (0x2901), Client Characteristic Configuration
///   (0x2902), Server Characteristic Configuration (0x2903), Characteristic Presentation Format (0x2904) and
///   Characteristic Aggregate Format (0x2905) descriptor.
///
/// Characteristic values and any other attribute are left out, so a value that changes at run time (a
/// temperature, a user description's text, a CCCD's subscription bits) never changes the hash, while moving a
/// handle, adding or removing a service, or changing a characteristic's properties does. Handles go in as 2 bytes
/// and types as the 2 or 16 bytes ATT carries, least significant byte first.
///
/// Computing it is pure: the same attributes give the same hash on every machine, which is what lets the virtual
/// radio's GATT server and the layers' cache compare notes. This module keeps the value and the bytes that are hashed
/// (``message(over:)``); the computation, `init(attributes:)`, is AirlinkSimulation's, the one place a hash is
/// computed, so that a client of the layers, which only compares hashes, does not build the cipher. ``bytes`` are in
/// the order the specification writes the sample database's hash (Vol 3, Part G, Appendix B: `F1 CA 2D 48 … A9 90`).
public struct GATTDatabaseHash: Hashable, Sendable, CustomStringConvertible {
    /// The hash's length in bytes: AES-CMAC's 128 bits.
    public static let byteCount = 16

    /// The 16 bytes of the hash, as AES-CMAC produces them.
    public let bytes: [UInt8]

    /// Takes a hash a peer or a store reported, for example the value read from the Database Hash characteristic.
    ///
    /// - Throws: ``AirlinkError/Code/invalidArgument`` when `bytes` is not 16 bytes long.
    public init(bytes: [UInt8]) throws(AirlinkError) {
        guard bytes.count == Self.byteCount else {
            throw AirlinkError(
                .invalidArgument, "a GATT Database Hash is \(Self.byteCount) bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// The bytes the hash is computed over: what each attribute contributes, in handle order.
    ///
    /// Exposed so that a test or a log can show exactly what went into a hash (the specification prints the
    /// sample database's message as blocks M0 to M6).
    public static func message(over attributes: some Sequence<Attribute>) -> [UInt8] {
        var message: [UInt8] = []
        for attribute in attributes.sorted(by: { $0.handle < $1.handle }) {
            switch Contribution(of: attribute.type) {
            case .handleTypeValue: message += attribute.handleAndType + attribute.value
            case .handleType: message += attribute.handleAndType
            case .none: continue
            }
        }
        return message
    }

    /// `F1CA2D48ECF58BAC8A8830BBB9FBA990`: the bytes in uppercase hexadecimal.
    public var description: String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}

extension GATTDatabaseHash {
    /// One attribute of a server's table as the hash reads it: handle, type and stored value (Vol 3, Part F, 3.2).
    ///
    /// A neutral description, so that any attribute table (the virtual radio's, one a test writes by hand, one a
    /// client rebuilt from discovery) can be hashed. Give every attribute, characteristic values included: the hash
    /// decides which ones count.
    public struct Attribute: Hashable, Sendable {
        /// The attribute's handle.
        public var handle: ATTHandle
        /// The attribute's type: a declaration, a descriptor or a characteristic's UUID.
        public var type: BluetoothUUID
        /// The attribute's value as the server stores it; for a declaration, the declaration's bytes.
        public var value: [UInt8]

        /// Describes an attribute.
        ///
        /// - Parameters:
        ///   - handle: where the attribute sits in the table.
        ///   - type: its attribute type.
        ///   - value: its stored value; only declarations' and Extended Properties' values enter the hash.
        public init(handle: ATTHandle, type: BluetoothUUID, value: [UInt8] = []) {
            self.handle = handle
            self.type = type
            self.value = value
        }

        /// The handle's 2 bytes and the type's 2 or 16 (ATT has no 32-bit attribute types), least significant first.
        var handleAndType: [UInt8] {
            let handleBytes = [
                UInt8(truncatingIfNeeded: handle.rawValue), UInt8(truncatingIfNeeded: handle.rawValue >> 8),
            ]
            return handleBytes + type.littleEndianBytes(count: type.uint16 == nil ? 16 : 2)
        }
    }

    /// What an attribute of a given type contributes to the hash (Vol 3, Part G, 7.3).
    enum Contribution {
        /// Declarations and Extended Properties: their layout is their value.
        case handleTypeValue
        /// The descriptors whose values may change at run time: their handle and type count, their value does not.
        case handleType
        /// Characteristic values and other descriptors.
        case none

        init(of type: BluetoothUUID) {
            switch type {
            case .primaryServiceDeclaration, .secondaryServiceDeclaration, .includeDeclaration,
                .characteristicDeclaration, .characteristicExtendedProperties:
                self = .handleTypeValue
            case .characteristicUserDescription, .clientCharacteristicConfiguration,
                .serverCharacteristicConfiguration, .characteristicPresentationFormat,
                .characteristicAggregateFormat:
                self = .handleType
            default:
                self = .none
            }
        }
    }
}
