import AirlinkCore
import AirlinkSimulation

extension Simulation {
    /// This simulation as an ``OpenedTransport``: its radio and environment, jobs run inside
    /// ``/AirlinkSimulation/Simulation/run(limit:_:)`` (virtual time passes at once), and closing ends the
    /// radio's event streams. A ``TransportSelector/makeSimulated`` hook of your own (a world of your own
    /// peripherals) returns one:
    ///
    /// ```swift
    /// let selector = TransportSelector(makeSimulated: { scenario throws(AirlinkError) in
    ///     let simulation = Simulation(seed: 7)
    ///     _ = try simulation.add(.battery(level: 40))
    ///     return simulation.opened(as: .simulation(scenario: scenario))
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - specifier: what the user typed (`sim`, `sim:PATH`).
    ///   - limit: the most virtual time one job may take before it fails with a timeout; a year by default.
    public func opened(
        as specifier: TransportSpecifier = .simulation(scenario: nil), limit: Duration = TransportSelector.jobLimit
    ) -> OpenedTransport {
        let radio = self.radio
        return OpenedTransport(
            transport: radio, environment: environment, specifier: specifier,
            run: { job in try await self.run(limit: limit, job) },
            close: { radio.shutdown() })
    }
}
