import Airlink
import AirlinkCore
import ArgumentParser

/// `airlink observe NAME`: finds an inspector, lists its values and follows their changes.
///
/// On the simulated world an inspector exists only with `--demo` (the demo inspector "Test Server"
/// then runs in the same simulation); the built-in world has none.
struct ObserveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "observe",
        abstract: "List and follow an inspector's values (on sim, with --demo for the demo inspector).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The inspector's name.")
    var name: String

    @Flag(name: .long, help: "Add the demo inspector \"Test Server\" to the simulated world.")
    var demo = false

    @Option(name: .long, help: "How long to look for the inspector: 5s.")
    var timeout: String = "5s"

    @Option(name: .long, help: "How long to follow changes: 10s (virtual time on sim).")
    var duration: String = "10s"

    func validate() throws {
        for text in [timeout, duration] where DurationArgument(argument: text) == nil {
            throw ValidationError("\"\(text)\" is not a duration: write a number and a unit, such as 10s")
        }
    }

    func run() async throws {
        let scanFor = DurationArgument(argument: timeout)!.duration
        let followFor = DurationArgument(argument: duration)!.duration
        let demo = try InspectorDemo(seed: global.seed)
        if self.demo { try await demo.start() }
        let name = self.name
        let lines = try await demo.sim.run { () async throws -> [String] in
            let found = try await demo.observer.discover(named: name, timeout: scanFor)
            guard let first = found.first else {
                return [
                    "no inspector named \"\(name)\" found in \(seconds(scanFor))"
                        + (self.demo ? "" : "; the simulated world has an inspector only with --demo")
                ]
            }
            var lines = ["\(demo.stamp) \(first)"]
            let inspector = try await demo.observer.connect(to: first.id)
            for value in inspector.values {
                let options = [
                    value.options.contains(.read) ? "read" : nil, value.options.contains(.write) ? "write" : nil,
                    value.options.contains(.notify) ? "notify" : nil,
                ].compactMap { $0 }.joined(separator: ",")
                let current = value.options.contains(.read) ? "\(try await inspector.read(value.identifier))" : "-"
                lines.append("  \(value.identifier)  \(value.type)  [\(options)]  \(current)")
            }
            let changes = try await inspector.changes()
            let end = demo.sim.now.advanced(by: followFor)
            let clock = demo.sim.clock
            demo.sim.spawn {
                try? await clock.sleep(until: end)
                await inspector.disconnect()
            }
            for await change in changes { lines.append("\(demo.stamp) \(change)") }
            return lines
        }
        for line in lines { print(line) }
        if lines.count == 1, !self.demo { throw ExitCode(1) }
    }
}
