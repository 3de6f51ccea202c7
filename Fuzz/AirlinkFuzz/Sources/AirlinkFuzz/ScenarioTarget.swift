import AirlinkCore
import AirlinkTestKit

/// Scenario files (YAML): parsing never traps or hangs and throws only `invalidSpecification` whose
/// message starts with the file's name; parsing is deterministic (the same text, the same outcome).
let scenarioTarget = FuzzTarget(name: "scenario") { bytes in
    let name = "scenario"
    guard let text = String(validating: bytes, as: UTF8.self) else { return }
    let first = outcome(text)
    guard first == outcome(text) else { violated(name, "two parses of one text differ") }
    if first.hasPrefix("error "), !first.hasPrefix("error invalidSpecification fuzz.yaml") {
        violated(name, "parsing threw \(first)")
    }
}

/// What parsing `text` gave: the scenario's main fields, or the error's code and message.
private func outcome(_ text: String) -> String {
    do throws(AirlinkError) {
        let scenario = try Scenario.parse(text, source: "fuzz.yaml")
        return "ok \(scenario.seed) \(scenario.duration) \(scenario.world.count) \(scenario.timeline.count) "
            + "\(scenario.client.count) \(scenario.expect.count)"
    } catch {
        return "error \(error.code) \(error.message)"
    }
}
