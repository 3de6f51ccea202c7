import AirlinkCore

extension Simulation {
    /// Runs the simulation with its virtual clock paced to the wall clock: everything due happens when its
    /// time comes in real time, and virtual time never runs ahead of real time (``RealTimePacer``).
    ///
    /// For a host outside the simulation, such as a BLE stack behind the HCI controller. Between steps the
    /// driver thread calls `between` with how long it may block waiting for that host (at most
    /// `step`): it may feed the simulation there (start tasks with ``spawn(_:)``, call the radio), since the
    /// simulation is not running then. The trace's first line of the run says it is paced. The run is as
    /// seeded as any, but what the host sends, and when, comes from outside: it is not reproducible.
    ///
    /// - Parameters:
    ///   - step: the longest real time between two steps.
    ///   - between: called between steps with the time it may block; returns whether to go on.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/escapedWork`` in strict mode when work escaped.
    package func runPaced(step: Duration = .milliseconds(2), between: @escaping @Sendable (Duration) -> Bool)
        async throws
    {
        world.record("sim", "paced to the wall clock (virtual time never ahead of real time)")
        let kernel = self.kernel
        let origin = now
        _ = await DriverThread.runDetached {
            let pacer = RealTimePacer()
            while true {
                let target = origin.advanced(by: pacer.elapsed)
                _ = kernel.drive(until: target) { false }
                kernel.advanceTime(to: target)
                if !between(step) { return 0 }
            }
        }
        try checkEscapes()
    }
}
