/// The sub-type of a random device address, given by its two most significant bits
/// (Core Spec Vol 6, Part B, 1.3.2).
public enum RandomAddressKind: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Top bits `11`: a static device address, fixed at least until the next power cycle (1.3.2.1).
    case `static`
    /// Top bits `01`: a resolvable private address, resolvable with the peer's IRK (1.3.2.2).
    case resolvablePrivate
    /// Top bits `00`: a non-resolvable private address (1.3.2.2).
    case nonResolvablePrivate
    /// Top bits `10`: reserved for future use.
    case reserved

    /// Reads the kind from the address's two most significant bits.
    ///
    /// - Parameter bits: the two most significant bits of the address, in the low two bits.
    init(mostSignificantBits bits: UInt8) {
        switch bits & 0b11 {
        case 0b11: self = .static
        case 0b01: self = .resolvablePrivate
        case 0b00: self = .nonResolvablePrivate
        default: self = .reserved
        }
    }

    /// `static`, `resolvablePrivate`, `nonResolvablePrivate` or `reserved`.
    public var description: String { rawValue }
}
