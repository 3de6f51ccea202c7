import AirlinkCore
import AirlinkSimulation
import AirlinkTransports

extension Simulation {
    /// This simulation as the ``/AirlinkTransports/TransportSelector`` hook returns it: its radio and
    /// environment, jobs run inside ``/AirlinkSimulation/Simulation/run(limit:_:)`` (virtual time passes
    /// at once), and closing ends the radio's event streams.
    ///
    /// - Parameters:
    ///   - specifier: what the user typed (`sim`).
    ///   - limit: the most virtual time one job may take before it fails with a timeout.
    func opened(as specifier: TransportSpecifier, limit: Duration) -> OpenedTransport {
        let radio = self.radio
        return OpenedTransport(
            transport: radio, environment: environment, specifier: specifier,
            run: { job in try await self.run(limit: limit, job) },
            close: { radio.shutdown() })
    }
}
