/// The version of the explorer's generator: a seed names the same run for as long as the version stays.
///
/// A change to what ``ExplorationGenerator`` draws, or in which order, changes the run a seed names;
/// it bumps ``current`` and says why in ``history``, so that a seed quoted in a report is read with the
/// generator that drew it.
public struct ExplorerVersion: Sendable, Hashable, CustomStringConvertible {
    /// The version number.
    public var number: Int

    /// A version by its number (check it against ``supported`` before drawing with it).
    public init(number: Int) { self.number = number }

    /// The generator this build draws plans with.
    ///
    /// Version 3 draws everything version 2 did, in the same order, and then its own additions (further apps
    /// and second client entries): ``ExplorationGenerator/plan(seed:version:)`` with version 2 stops before
    /// them, so a seed quoted from a version 2 report names the same run with `airlink explore --version 2`.
    /// Version 4 extends version 3 the same way (database caching, stale hashes).
    /// Version 1 drew in another order: rerun a seed quoted from a version 1 report with a build of that
    /// version (before `explorer-v2`).
    public static let current = ExplorerVersion(number: 4)

    /// The versions this build can still draw: the current one and those it extends without changing them.
    public static let supported: ClosedRange<Int> = 2...4

    /// Each version and what changed in it.
    public static let history: [(Int, String)] = [
        (1, "custom peripherals, one client each, the scenario format's faults"),
        (
            2,
            "built-in peripherals (battery, thermostat, SensorTag) among the custom ones; per-peripheral ATT MTU "
                + "and data length; the central's link parameters; unsubscribing and forgetting in the workload; "
                + "MTU exchanges refused; database changes without Service Changed"
        ),
        (
            3,
            "several apps on one adapter (1–3, each its own device manager and registry) with client entries that "
                + "overlap on a peripheral, and sometimes two entries of one app for one peripheral; drawn after "
                + "everything version 2 draws, so version 2's seeds keep their runs"
        ),
        (
            4,
            "firmware updates with the layers' database cache: the apps cache databases (databaseCache: verified) "
                + "in half the seeds; in the others database changes sometimes keep a stale Database Hash (the "
                + "broken devices); drawn after everything version 3 draws, so version 3's seeds keep their runs"
        ),
    ]

    /// `explorer-v3`.
    public var description: String { "explorer-v\(number)" }
}
