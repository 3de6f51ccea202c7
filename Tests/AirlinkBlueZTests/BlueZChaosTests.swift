import AirlinkBlueZTestSupport
import AirlinkCore
import Foundation
import Testing

/// The fake BlueZ's chaos mode and the BlueZ explorer (Docs/DeterministicCI.md, "The fake BlueZ explored").
@Suite(.fakeBlueZ("chaos-sensor.json"), .serialized)
struct BlueZChaosTests {
    /// The timeline entry of a chaos log: what a seed drew before any call arrived, its events re-encoded without
    /// the entry's `t` (the wall-clock milliseconds at which the fixture logged it, which load changes).
    private func timeline(_ fake: FakeBlueZ, seed: UInt64) async throws -> String? {
        try await fake.reset()
        try await fake.setChaos(seed: seed, profile: #"{"events": 3}"#)
        let log = try await fake.chaosLog()
        try await fake.reset()
        guard let line = log.first(where: { $0.contains(#""kind":"timeline""#) }),
            let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let events = entry["events"]
        else { return nil }
        return String(decoding: try JSONSerialization.data(withJSONObject: events, options: .sortedKeys), as: UTF8.self)
    }

    @Test func aSeedDrawsTheSameTimelineEveryTime() async throws {
        // Given the fixture
        let fake = try await FakeBlueZ.fresh()

        // When seed 7 turns the chaos mode on twice, and seeds 1 to 4 once each
        let first = try await timeline(fake, seed: 7)
        let again = try await timeline(fake, seed: 7)
        var others: Set<String> = []
        for seed: UInt64 in 1...4 { others.insert(try await timeline(fake, seed: seed) ?? "") }

        // Then seed 7 drew the same faults at the same times both times, and the other seeds differ
        #expect(first != nil)
        #expect(first == again)
        #expect(others.count > 1)
    }

    @Test func aBadChaosProfileIsRefusedWithTheKnownKeys() async throws {
        // Given the fixture
        let fake = try await FakeBlueZ.fresh()

        // When the chaos mode is asked for with a key it does not know
        let refused = await #expect(throws: (any Error).self) {
            try await fake.setChaos(seed: 1, profile: #"{"event": 3}"#)
        }

        // Then the error names the key and the known ones
        #expect("\(refused.map { "\($0)" } ?? "")".contains("events"))
    }

    @Test func afterBluetoothdRestartsTheAppReopensTheDevicesItsRegistryKnows() async throws {
        // Given the fixture and a chaos profile with no fault but bluetoothd restarting (seed 1: at 1171 ms, once
        // both sensors are connected)
        let fake = try await FakeBlueZ.fresh()
        let explorer = BlueZExplorer(
            profile: #"""
                {"durationMs": 3000, "events": 2, "kinds": ["restart"], "late": 0, "never": 0, "error": 0,
                 "duplicate": 0, "connectOrder": 0, "disconnectOrder": 0}
                """#)

        // When seed 1 runs
        let outcome = await explorer.run(seed: 1, on: fake)

        // Then the app opened a second session with devices of the first (those its registry knew), and every
        // oracle held in each session and over the run
        #expect(outcome.sessions >= 2, "\(outcome.report(verbose: true))")
        #expect(outcome.devices.first?.count == 2)
        if outcome.devices.count >= 2 {
            #expect(!outcome.devices[1].isEmpty)
            #expect(Set(outcome.devices[1]).isSubset(of: Set(outcome.devices[0])))
        }
        if !outcome.passed { Issue.record("\(outcome.report())") }
    }

    @Test func twoSeedsOfTheExplorerHold() async throws {
        // Given the fixture and the explorer with its default chaos profile
        let fake = try await FakeBlueZ.fresh()
        let explorer = BlueZExplorer()

        // When two seeds run
        var outcomes: [BlueZExplorer.Outcome] = []
        for seed: UInt64 in 1...2 { outcomes.append(await explorer.run(seed: seed, on: fake)) }

        // Then every oracle held (a failure prints its seed, its chaos and the layers' events)
        for outcome in outcomes where !outcome.passed { Issue.record("\(outcome.report())") }
    }
}

/// The CI budget of the BlueZ explorer: `AIRLINK_CHAOS_SEEDS=1...N` (Scripts/explore-bluez sets it).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["AIRLINK_CHAOS_SEEDS"] != nil), .serialized)
struct BlueZChaosSweep {
    @Test func theSeedsHold() async throws {
        // Given the range of seeds the environment names
        let text = ProcessInfo.processInfo.environment["AIRLINK_CHAOS_SEEDS"] ?? ""
        let bounds = text.components(separatedBy: "...").compactMap { UInt64($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else {
            Issue.record("AIRLINK_CHAOS_SEEDS is \"\(text)\"; write a range such as 1...30")
            return
        }

        // When each runs on one fixture (AIRLINK_CHAOS_VERBOSE=1 prints what passing seeds did too)
        let verbose = ProcessInfo.processInfo.environment["AIRLINK_CHAOS_VERBOSE"] == "1"
        let began = ContinuousClock.now
        let outcomes = try await BlueZExplorer(
            profile: ProcessInfo.processInfo.environment["AIRLINK_CHAOS_PROFILE"] ?? BlueZExplorer.defaultProfile
        )
        .sweep(bounds[0]...bounds[1]) { outcome in print(outcome.report(verbose: verbose)) }
        let took = began.duration(to: .now)

        // Then every oracle held
        let failed = outcomes.filter { !$0.passed }
        let minutes = Double(took.components.seconds) / 60 + Double(took.components.attoseconds) / 6e19
        print(
            "BlueZ explorer: \(outcomes.count) seed(s) in "
                + String(
                    format: "%.1f s, %.1f runs per minute", minutes * 60, Double(outcomes.count) / max(minutes, 1e-9))
                + ", \(failed.count) failed" + (failed.isEmpty ? "" : ": \(failed.map(\.seed))"))
        let kinds = outcomes.flatMap(\.chaos).compactMap { line -> String? in
            // The drawn timeline is not a fault; its entries are counted as they fire.
            guard !line.contains(#""kind":"timeline""#), let range = line.range(of: #""kind":""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        let counted = Dictionary(kinds.map { ($0, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }
        print("BlueZ explorer: faults by kind: " + counted.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        for outcome in failed { Issue.record("\(outcome.report())") }
    }
}

/// The BlueZ explorer's workload: a function of the seed.
@Suite struct BlueZChaosWorkloadTests {
    @Test func aSeedDrawsTheSameWorkloadEveryTimeAndTheSeedsCoverEveryStep() {
        // Given seeds 1 to 30, drawn twice
        let first = (1...30).map { BlueZChaosWorkload(seed: UInt64($0)) }
        let again = (1...30).map { BlueZChaosWorkload(seed: UInt64($0)) }

        // When their clients and steps are compared
        let steps = first.flatMap(\.clients).flatMap(\.steps)

        // Then each seed drew the same workload twice, and CI's seeds use both peripherals, unsubscribe and forget
        #expect(first.map(\.description) == again.map(\.description))
        #expect(first.map { $0.clients.flatMap(\.steps) } == again.map { $0.clients.flatMap(\.steps) })
        #expect(first.contains { $0.clients.count == 2 })
        #expect(steps.contains { if case .unsubscribe = $0 { true } else { false } })
        #expect(steps.contains { if case .forget = $0 { true } else { false } })
    }
}

/// A failing seed's report names the command that reproduces it.
@Suite struct BlueZExplorerReportTests {
    @Test func aRunWithAnotherProfileIsReproducedWithThatProfile() {
        // Given seed 48's outcome with the default profile, and with the heavy one's overrides
        var outcome = BlueZExplorer.Outcome(seed: 48, workload: BlueZChaosWorkload(seed: 48))
        let byDefault = outcome.report()
        outcome.profile = #"{"durationMs": 3000, "events": 6}"#

        // When each is reported
        let heavy = outcome.report()

        // Then the default one needs only the seed, and the other its profile too (the sweep's own hint left it out)
        #expect(byDefault.contains("reproduce with: AIRLINK_CHAOS_SEEDS=48...48 bash Scripts/explore-bluez"))
        #expect(
            heavy.contains(
                #"reproduce with: AIRLINK_CHAOS_PROFILE='{"durationMs": 3000, "events": 6}' "#
                    + "AIRLINK_CHAOS_SEEDS=48...48 bash Scripts/explore-bluez"))
    }
}
