extension GATTDatabaseHash {
    /// The Database Hash characteristic's value on the air (0x2B2A, Core Spec Vol 3, Part G, 7.3): ``bytes`` with
    /// the least significant octet first.
    ///
    /// The hash is a 128-bit number, and the specification sends multi-octet values least significant octet
    /// first (Vol 3, Part F, 3.3.1); it prints the sample's hash most significant octet first, as AES-CMAC
    /// produces it. Zephyr's server swaps the octets so, and the qualification tester expects it; Bumble serves
    /// the unswapped bytes. A client only compares hashes for equality, so a client that reads one server's
    /// hash twice agrees with itself either way; this order is the one the virtual radio serves.
    public var characteristicValue: [UInt8] { bytes.reversed() }

    /// Takes the value read from a Database Hash characteristic (least significant octet first).
    ///
    /// - Throws: ``AirlinkError/Code/invalidArgument`` when `characteristicValue` is not 16 bytes long.
    public init(characteristicValue: [UInt8]) throws(AirlinkError) {
        try self.init(bytes: characteristicValue.reversed())
    }
}
