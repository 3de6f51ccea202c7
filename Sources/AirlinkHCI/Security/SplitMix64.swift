/// SplitMix64 (Steele, Lea and Flood, 2014): the controller's source of pairing randoms, seeded so that a run is
/// repeatable. Not a cryptographic generator: the keys it makes protect simulated links only.
struct SplitMix64: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` random octets.
    mutating func bytes(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let word = next()
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) }
        }
        return Array(bytes.prefix(count))
    }
}
