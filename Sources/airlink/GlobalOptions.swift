import AirlinkCore
import AirlinkTestKit
import AirlinkTransports
import ArgumentParser
import Foundation
import Logging

/// The flags every subcommand shares.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The transport: sim (the built-in simulated world), sim:RECORDING.yaml, bluez, bluez:hciN. "
                + "Default: $AIRLINK_TRANSPORT, else sim.",
            valueName: "transport"))
    var transport: String?

    @Option(name: .long, help: "The simulation's seed (the same seed gives the same run).")
    var seed: UInt64 = 1

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    @Flag(name: .long, help: "Log what the layers do (connections, discoveries) to standard error.")
    var verbose = false

    /// The logger layers log through: warnings only (not the connection events the command reports
    /// itself), everything with `--verbose` (``CommandLogHandler``).
    var logger: Logger {
        let verbose = self.verbose
        return Logger(label: "airlink") { _ in CommandLogHandler(verbose: verbose) }
    }

    func validate() throws {
        _ = try specifier()
    }

    /// The transport chosen: `--transport`, else `AIRLINK_TRANSPORT`, else `sim`.
    ///
    /// - Throws: `ValidationError` saying what to type.
    func specifier(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TransportSpecifier {
        let chosen: TransportSpecifier
        do {
            if let transport {
                chosen = try TransportSpecifier(parsing: transport)
            } else {
                chosen = try TransportSpecifier.fromEnvironment(environment) ?? .simulation(scenario: nil)
            }
        } catch {
            throw ValidationError(error.message)
        }
        if case .simulation(let path?) = chosen {
            // Each problem with the file is its own message (missing, a FIFO, not UTF-8, not YAML at a line...);
            // only a scenario is pointed to `airlink simulate`.
            let content: DeviceRecording.FileContent
            do { content = try DeviceRecording.content(ofFileAt: path) } catch {
                throw ValidationError(error.message)
            }
            if content == .scenario { throw ValidationError(Session.scenarioMessage(path)) }
        }
        return chosen
    }
}
