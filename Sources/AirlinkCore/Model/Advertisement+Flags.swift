extension Advertisement {
    /// The Flags AD type's bits: discoverable mode and BR/EDR support (CSS Part A, 1.3;
    /// Core Spec Vol 3, Part C, 9.2 for the discoverable modes).
    public struct Flags: OptionSet, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The Flags AD structure's one byte: bit 0 LE Limited, bit 1 LE General Discoverable, bit 2
        /// BR/EDR not supported.
        public var rawValue: UInt8

        /// Creates flags from their octet.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: LE Limited Discoverable Mode.
        public static let leLimitedDiscoverable = Flags(rawValue: 1 << 0)
        /// Bit 1: LE General Discoverable Mode.
        public static let leGeneralDiscoverable = Flags(rawValue: 1 << 1)
        /// Bit 2: BR/EDR Not Supported.
        public static let brEDRNotSupported = Flags(rawValue: 1 << 2)
        /// Bit 3: Simultaneous LE and BR/EDR to Same Device Capable (Controller).
        public static let simultaneousLEAndBREDRController = Flags(rawValue: 1 << 3)
        /// Bit 4: Simultaneous LE and BR/EDR to Same Device Capable (Host); "Previously Used" in later
        /// versions of the supplement.
        public static let simultaneousLEAndBREDRHost = Flags(rawValue: 1 << 4)

        /// `0x06`, the usual flags of an LE-only peripheral: LE General Discoverable, BR/EDR Not Supported.
        public static let generalDiscoverableLEOnly: Flags = [.leGeneralDiscoverable, .brEDRNotSupported]

        /// `0x06`.
        public var description: String {
            let digits = String(rawValue, radix: 16, uppercase: true)
            return "0x" + (digits.count == 1 ? "0" : "") + digits
        }
    }
}
