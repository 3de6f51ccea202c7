/// The one place a simulation reads the wall clock: how far a paced run's virtual clock may go.
///
/// A host outside the simulation (a BLE stack behind the HCI controller) lives in real time; the virtual
/// clock must never run ahead of it, or its timeouts would see a world that has already moved on. The pacer
/// says how much real time passed since the paced run began; the run lets virtual time reach that, never
/// more. Nothing else in a simulation reads the wall clock, and an unpaced run never makes one.
struct RealTimePacer {
    // Real time on purpose: pacing exists to follow the wall clock.
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    /// Starts pacing from now.
    init() { start = clock.now }

    /// Real time passed since the pacer started.
    var elapsed: Duration { clock.now - start }
}
