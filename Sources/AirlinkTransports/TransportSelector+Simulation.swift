import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import AirlinkTestKit
import Foundation
import Logging

extension TransportSelector {
    /// The most virtual time one job run on `sim` may take before it fails with a timeout: a year (366 days).
    public static let jobLimit = Duration.seconds(366 * 86_400)

    /// How long a recording opened with `sim:PATH` loops its session: ten virtual minutes.
    public static let replayLength = Duration.seconds(600)

    /// The hook that opens `sim` and `sim:PATH`, and the one a selector uses unless given another: a
    /// ``/AirlinkSimulation/Simulation`` with the peripherals of ``simulatedWorld(for:)`` (the built-in
    /// world for `sim`, the recorded device for `sim:RECORDING.yaml`), opened with
    /// `Simulation.opened(as:limit:)`.
    ///
    /// ```swift
    /// let selector = TransportSelector(makeSimulated: TransportSelector.simulation(seed: 7, logLevel: .info))
    /// let opened = try await selector.open("sim")
    /// ```
    ///
    /// - Parameters:
    ///   - seed: the simulation's seed (the same seed gives the same run).
    ///   - logLevel: the least severe level the simulation logs; `nil` leaves it to `Simulation.init` (warnings
    ///     and worse by default, the given logger's own level when there is one).
    ///   - logger: the logger layers log through; `nil` for the simulation's default (standard error).
    ///   - world: the peripherals to add instead of ``simulatedWorld(for:)``'s, for callers that already loaded
    ///     them (the CLI keeps the world to resolve device names against).
    /// - Returns: a hook for ``makeSimulated``.
    public static func simulation(
        seed: UInt64 = 1, logLevel: AirlinkLogLevel? = nil, logger: Logger? = nil, world: [PeripheralSpec]? = nil
    ) -> SimulatedFactory {
        { scenario throws(AirlinkError) in
            var peripherals = world ?? []
            if world == nil { peripherals = try simulatedWorld(for: scenario) }
            let simulation = Simulation(seed: seed, strict: false, logLevel: logLevel, logger: logger)
            for peripheral in peripherals { _ = try simulation.add(peripheral) }
            return simulation.opened(as: .simulation(scenario: scenario))
        }
    }

    /// The peripherals `sim` (`nil`: `SimulatedWorld.builtIn` (AirlinkProfiles)) or `sim:PATH` (the device
    /// an `airlink record` recording holds, looping its session for ``replayLength``) puts on the air.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a file that is not a recording (a
    ///   scenario runs with `Scenario.load(path:)` or `airlink simulate`); what
    ///   `DeviceRecording.load(path:)` throws for a recording that cannot be read or replayed.
    public static func simulatedWorld(for scenario: String?) throws(AirlinkError) -> [PeripheralSpec] {
        guard let path = scenario else { return SimulatedWorld.builtIn.peripherals }
        // A file that cannot be read is for `load` to describe; one that reads but is no recording is a scenario.
        guard DeviceRecording.isRecording(path: path) || !FileManager.default.isReadableFile(atPath: path) else {
            throw AirlinkError(
                .invalidArgument,
                "sim:\(path) is not a recording made with `airlink record`; a scenario file runs with "
                    + "Scenario.load(path:) in a test or `airlink simulate \(path)`")
        }
        return [try DeviceRecording.load(path: path).peripheralSpec(replay: .loop(until: replayLength))]
    }
}
