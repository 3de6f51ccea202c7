import AirlinkBlueZ
import Foundation

extension FakeBlueZ {
    /// Turns the fixture's chaos mode on from now (Tests/Fixtures/bluez/chaos.py): every fault drawn from
    /// `seed`, the profile's defaults overridden by `profile` (a JSON object, `""` for none). ``reset()`` ends it.
    package func setChaos(seed: UInt64, profile: String = "") async throws {
        try await call("SetChaos", [.uint64(seed), .string(profile)])
    }

    /// What the chaos mode did so far: one JSON object a line (`{"t": ms, "kind": ..., ...}`).
    package func chaosLog() async throws -> [String] {
        let text = try await call("ChaosLog", []).arguments().first?.string ?? "[]"
        let entries = (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any]) ?? []
        return entries.map { entry in
            // try?: each entry came out of JSONSerialization just above, so it goes back in.
            let data = (try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
