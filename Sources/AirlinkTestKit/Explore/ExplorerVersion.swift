/// The version of the explorer's generator: a seed names the same run for as long as the version stays.
///
/// A change to what ``ExplorationGenerator`` draws, or in which order, changes the run a seed names;
/// it bumps ``current`` and says why in ``history``, so that a seed quoted in a report is read with the
/// generator that drew it.
public struct ExplorerVersion: Sendable, Hashable, CustomStringConvertible {
    /// The version number.
    public var number: Int

    /// The generator this build draws plans with.
    public static let current = ExplorerVersion(number: 1)

    /// Each version and what changed in it.
    public static let history: [(Int, String)] = [
        (1, "custom peripherals, one client each, the scenario format's faults")
    ]

    /// `explorer-v1`.
    public var description: String { "explorer-v\(number)" }
}
