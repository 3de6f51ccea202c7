import AirlinkCore

/// The System ID characteristic (0x2A23, Device Information Service 1.1, 3.9): 8 bytes, little-endian,
/// a 40-bit manufacturer-defined identifier followed by a 24-bit Organizationally Unique Identifier.
public struct SystemID: GATTValue, Hashable {
    /// The manufacturer-defined identifier (40 bits).
    public let manufacturerIdentifier: UInt64
    /// The IEEE OUI (24 bits).
    public let organizationallyUniqueIdentifier: UInt32

    /// Creates a System ID; bits beyond 40 and 24 are dropped.
    public init(manufacturerIdentifier: UInt64, organizationallyUniqueIdentifier: UInt32) {
        self.manufacturerIdentifier = manufacturerIdentifier & 0xFF_FFFF_FFFF
        self.organizationallyUniqueIdentifier = organizationallyUniqueIdentifier & 0xFF_FFFF
    }

    /// Decodes the 8 bytes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for another length.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try Self.requireLength(gattBytes, 8...8)
        var manufacturer: UInt64 = 0
        for index in 0..<5 { manufacturer |= UInt64(gattBytes[index]) << (8 * index) }
        var oui: UInt32 = 0
        for index in 0..<3 { oui |= UInt32(gattBytes[5 + index]) << (8 * index) }
        self.init(manufacturerIdentifier: manufacturer, organizationallyUniqueIdentifier: oui)
    }

    /// The 8 bytes.
    public var gattBytes: [UInt8] {
        (0..<5).map { UInt8(truncatingIfNeeded: manufacturerIdentifier >> (8 * $0)) }
            + (0..<3).map { UInt8(truncatingIfNeeded: organizationallyUniqueIdentifier >> (8 * $0)) }
    }
}
