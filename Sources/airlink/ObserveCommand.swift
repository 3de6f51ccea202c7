import Airlink
import AirlinkCore
import ArgumentParser
import Foundation

/// `airlink observe NAME`: finds an inspector, lists its values and follows their changes.
///
/// Works on any transport: on BlueZ it finds inspectors on the air; on the simulated world an
/// inspector exists only with `--demo` (the demo inspector "Test Server" then runs in the same
/// simulation), since the built-in world has none.
struct ObserveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "observe",
        abstract: "List and follow an inspector's values (on sim, with --demo for the demo inspector).",
        discussion: """
            airlink observe "Test Server" --demo
            airlink observe "Test Server" --transport bluez --duration 1m
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The inspector's name.")
    var name: String

    @Flag(name: .long, help: "Add the demo inspector \"Test Server\" to the simulated world.")
    var demo = false

    @Option(name: .long, parsing: .unconditional, help: "How long to look for the inspector: 5s (at most 10m on sim).")
    var timeout: String = "5s"

    @Option(
        name: .long, parsing: .unconditional,
        help: "How long to follow changes: 10s (virtual time on sim, at most 10m).")
    var duration: String = "10s"

    func validate() throws {
        if demo, case .bluez = try global.specifier() {
            throw ValidationError("--demo adds an inspector to the simulated world; drop it to observe on BlueZ")
        }
        let maximum = DurationArgument.maximum(on: global)
        _ = try DurationArgument.parse(timeout, flag: "--timeout", maximum: maximum)
        _ = try DurationArgument.parse(duration, flag: "--duration", maximum: maximum)
    }

    func run() async throws {
        let scanFor = try DurationArgument.parse(timeout, flag: "--timeout")
        let followFor = try DurationArgument.parse(duration, flag: "--duration")
        let (name, json) = (self.name, global.json)
        let found: Bool
        if demo {
            let demo = try InspectorDemo(seed: global.seed)
            try await demo.start()
            let environment = demo.sim.environment
            found = try await demo.sim.run {
                try await Self.observe(name, with: demo.observer, environment: environment, scanFor, followFor, json)
            }
        } else {
            let session = try await Session.open(global)
            defer { session.close() }
            let environment = session.environment
            let observer = InspectorClient(
                manager: DeviceManager(transport: session.transport, environment: environment))
            found = try await session.run {
                try await Self.observe(name, with: observer, environment: environment, scanFor, followFor, json)
            }
            if !found, session.isSimulated {
                throw CommandFailure(
                    "no inspector named \"\(name)\" found in \(seconds(scanFor)): the built-in simulated world has "
                        + "none; add the demo one with --demo", status: ExitStatus.failure)
            }
        }
        if !found {
            throw CommandFailure(
                "no inspector named \"\(name)\" found in \(seconds(scanFor))", status: ExitStatus.failure)
        }
    }

    /// Finds the inspector, prints its values, then its changes for `followFor`; false if not found.
    static func observe(
        _ name: String, with observer: InspectorClient, environment: AirlinkEnvironment, _ scanFor: Duration,
        _ followFor: Duration, _ json: Bool
    ) async throws -> Bool {
        let start = environment.clock.now
        func line(_ event: String) -> InspectorOutput.ObserveLine {
            InspectorOutput.ObserveLine(event: event, time: jsonSeconds(environment.clock.now.offset - start.offset))
        }
        func stamp() -> String { Seconds(environment.clock.now.offset - start.offset).stamp }
        let found = try await observer.discover(named: name, timeout: scanFor)
        guard let first = found.first else { return false }
        var foundLine = line("found")
        (foundLine.name, foundLine.device) = (first.name, first.id.description)
        emit(json ? Output.jsonLine(foundLine) : "\(stamp()) \(first)")
        let inspector = try await observer.connect(to: first.id)
        for value in inspector.values {
            let options = [
                value.options.contains(.read) ? "read" : nil, value.options.contains(.write) ? "write" : nil,
                value.options.contains(.notify) ? "notify" : nil,
            ].compactMap { $0 }.joined(separator: ",")
            let current = value.options.contains(.read) ? try await inspector.read(value.identifier) : nil
            var valueLine = line("value")
            (valueLine.identifier, valueLine.type) = (value.identifier, "\(value.type)")
            (valueLine.options, valueLine.value) = (
                InspectorOutput.options(value.options), current.map(InspectorOutput.Value.init)
            )
            emit(
                json
                    ? Output.jsonLine(valueLine)
                    : "  \(value.identifier)  \(value.type)  [\(options)]  \(current.map { "\($0)" } ?? "-")")
        }
        let changes = try await inspector.changes()
        let end = environment.clock.now.advanced(by: followFor)
        let clock = environment.clock
        _ = environment.spawn {
            // try?: cancelled only when the simulation winds down, which disconnects anyway.
            try? await clock.sleep(until: end)
            await inspector.disconnect()
        }
        for await change in changes {
            var changed = line("changed")
            (changed.identifier, changed.value) = (change.identifier, InspectorOutput.Value(change.value))
            emit(json ? Output.jsonLine(changed) : "\(stamp()) \(change)")
        }
        return true
    }
}
