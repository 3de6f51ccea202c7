import AirlinkCore
import Testing

@testable import AirlinkSimulation

@Suite struct SeededRandomSourceTests {
    @Test func sameSeedGivesSameSequence() {
        let a = SeededRandomSource(seed: 42)
        let b = SeededRandomSource(seed: 42)
        #expect((0..<100).map { _ in a.next() } == (0..<100).map { _ in b.next() })
    }

    @Test func differentSeedsDiffer() {
        let a = SeededRandomSource(seed: 1)
        let b = SeededRandomSource(seed: 2)
        #expect((0..<8).map { _ in a.next() } != (0..<8).map { _ in b.next() })
    }

    @Test func knownFirstValueIsStableAcrossMachines() {
        // xoshiro256** over SplitMix64(0): the reference implementations give this first output.
        #expect(SeededRandomSource(seed: 0).next() == 0x99EC_5F36_CB75_F2B4)
    }

    @Test func uniformStaysInRangeAndCoversIt() {
        let random = SeededRandomSource(seed: 9)
        var seen = Set<Int>()
        for _ in 0..<2_000 {
            let value = random.uniform(in: -3...3)
            #expect((-3...3).contains(value))
            seen.insert(value)
        }
        #expect(seen.count == 7)
    }

    @Test func durationDrawsStayWithinTheAdvertisingDelay() {
        let random = SeededRandomSource(seed: 5)
        for _ in 0..<1_000 {
            let delay = random.duration(in: .zero ... .milliseconds(10))
            #expect(delay >= .zero && delay <= .milliseconds(10))
        }
    }
}
