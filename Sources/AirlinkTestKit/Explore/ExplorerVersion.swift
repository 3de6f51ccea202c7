/// The version of the explorer's generator: a seed names the same run for as long as the version stays.
///
/// A change to what ``ExplorationGenerator`` draws, or in which order, changes the run a seed names;
/// it bumps ``current`` and says why in ``history``, so that a seed quoted in a report is read with the
/// generator that drew it.
public struct ExplorerVersion: Sendable, Hashable, CustomStringConvertible {
    /// The version number.
    public var number: Int

    /// The generator this build draws plans with.
    ///
    /// Version 2 draws more than version 1 did, in a different order, so a seed quoted from a version 1
    /// report names another run today: rerun it with a build of that version (before `explorer-v2`) to
    /// see the run it named.
    public static let current = ExplorerVersion(number: 2)

    /// Each version and what changed in it.
    public static let history: [(Int, String)] = [
        (1, "custom peripherals, one client each, the scenario format's faults"),
        (
            2,
            "built-in peripherals (battery, thermostat, SensorTag) among the custom ones; per-peripheral ATT MTU "
                + "and data length; the central's link parameters; unsubscribing and forgetting in the workload; "
                + "MTU exchanges refused; database changes without Service Changed"
        ),
    ]

    /// `explorer-v2`.
    public var description: String { "explorer-v\(number)" }
}
