import AirlinkCore
import Synchronization

/// A seeded ``/AirlinkCore/RandomSource``: xoshiro256** seeded through SplitMix64.
///
/// The same seed gives the same sequence on every machine and in every process. It is not
/// cryptographically secure, and it does not need to be: it drives advertising delays, RSSI noise
/// and back-off jitter in simulation.
public final class SeededRandomSource: RandomSource {
    private let state: Mutex<(UInt64, UInt64, UInt64, UInt64)>

    /// The seed the source was created with.
    public let seed: UInt64

    /// Creates a source from a seed.
    public init(seed: UInt64) {
        self.seed = seed
        var mixer = seed
        func splitMix() -> UInt64 {
            mixer &+= 0x9E37_79B9_7F4A_7C15
            var z = mixer
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = Mutex((splitMix(), splitMix(), splitMix(), splitMix()))
    }

    /// The next 64 random bits.
    public func next() -> UInt64 {
        state.withLock { s in
            let result = rotateLeft(s.1 &* 5, 7) &* 9
            let t = s.1 << 17
            s.2 ^= s.0
            s.3 ^= s.1
            s.1 ^= s.2
            s.0 ^= s.3
            s.2 ^= t
            s.3 = rotateLeft(s.3, 45)
            return result
        }
    }
}

@inline(__always) private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
