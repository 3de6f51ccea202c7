import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Logging
import Synchronization
import Testing

/// A simulation is quiet by default (warnings and worse), loud on request with an Airlink-owned level, and a link
/// loss the app handles is not a warning.
@Suite struct SimulationLoggingTests {
    @Test func aDefaultSimulationLogsNothingBelowWarning() {
        // Given a simulation with default settings, and one given a level
        let quiet = Simulation(seed: 1, strict: true)
        let chatty = Simulation(seed: 1, strict: true, logLevel: .debug)

        // Then the default one passes warnings and worse only to its handler; the level asked for is kept
        #expect(quiet.environment.logger.logLevel == .warning)
        #expect(Simulation.defaultLogLevel == .warning)
        #expect(chatty.environment.logger.logLevel == .debug)
    }

    @Test func aLoggerOfTheAppsKeepsItsLevelUnlessOneIsAsked() {
        // Given an app's logger at trace level, with and without a level for the simulation
        let entries = LogEntries()
        let logger = Logger(label: "app") { _ in RecordingLogHandler(entries: entries) }
        let own = Simulation(seed: 1, strict: true, logger: logger)
        let asked = Simulation(seed: 1, strict: true, logLevel: .error, logger: logger)

        // When each logs at info and error
        for sim in [own, asked] {
            sim.environment.logger.info("info line")
            sim.environment.logger.error("error line")
        }

        // Then the app's level let both through, the level asked for only the error
        #expect(entries.lines == ["info info line", "error error line", "error error line"])
    }

    @Test func aLinkLossDuringReconnectionIsNotAWarning() async throws {
        // Given a simulation logging everything to a recorder, with a thermostat and a connection that reconnects
        let entries = LogEntries()
        let logger = Logger(label: "app") { _ in RecordingLogHandler(entries: entries) }
        let sim = Simulation(seed: 5, strict: true, logLevel: .trace, logger: logger)
        let thermostat = try sim.add(.thermostat())
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
        let connection = manager.connection(
            to: thermostat.id, reconnection: .linear(wait: .seconds(1), attempts: 3, timeout: .seconds(3)))

        // When the link drops and the strategy reconnects
        try await sim.run {
            try await connection.connect(timeout: .seconds(5))
            thermostat.dropLink(reason: .supervisionTimeout)
            try await sim.clock.sleep(for: .seconds(5))
        }

        // Then the loss was logged at info, with its reason, and nothing was logged as a warning or worse
        let lost = entries.all.filter { $0.message.contains("was lost") }
        #expect(lost.map(\.level) == [.info], "\(entries.lines)")
        #expect(lost.first?.message.contains("Connection Timeout (0x08)") == true)
        #expect(entries.all.contains { $0.message.contains("reconnected") })
        #expect(!entries.all.contains { $0.level >= .warning }, "\(entries.lines)")
        manager.shutdown()
    }
}

/// What a ``RecordingLogHandler`` received.
final class LogEntries: Sendable {
    private let entries = Mutex<[(level: Logger.Level, message: String)]>([])

    func append(_ level: Logger.Level, _ message: String) { entries.withLock { $0.append((level, message)) } }

    var all: [(level: Logger.Level, message: String)] { entries.withLock { $0 } }

    /// `level message`, one per entry.
    var lines: [String] { all.map { "\($0.level) \($0.message)" } }
}

/// A log handler that keeps what it receives, at trace level unless set otherwise.
struct RecordingLogHandler: LogHandler {
    let entries: LogEntries
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        entries.append(event.level, "\(event.message)")
    }
}
