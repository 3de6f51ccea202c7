import Airlink
import AirlinkCore
import AirlinkSimulation

extension ScenarioClientDriver {
    /// Pairs with the entry's device through the layers (`connection.pair`) at `pairing.at` (0 s by default),
    /// recording the outcome; the layers report `paired`, `pairingFailed` or `bondLost` themselves.
    func pair(_ pairing: ScenarioSecurity, on connection: ConnectionManager) {
        let device = behaviour.device
        let recorder = context.recorder
        let trace = context.simulation.trace
        repeating(at: pairing.at ?? ScenarioDuration(.zero), every: nil, count: 1) {
            let index = recorder.start(
                "pair \(device)", timeout: .seconds(30), app: behaviour.app, client: behaviour.index)
            do throws(AirlinkError) {
                let result = try await connection.pair(features: pairing.features, agent: pairing.agent)
                recorder.finish(index, "ok")
                trace.record(traced(.paired(device, result)))
            } catch {
                recorder.finish(index, "failed: \(error.code)")
                let detail = error.pairingFailureReason.map { "\($0)" } ?? ""
                trace.record(traced(.pairFailed(device, error.code, detail: detail)))
            }
        }
    }
}
