import ArgumentParser

/// The flags every subcommand shares.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "The transport: sim (the built-in simulated world), sim:PATH (scenario file), bluez, bluez:hciN.")
    var transport: String = "sim"

    @Option(name: .long, help: "The simulation's seed (the same seed gives the same run).")
    var seed: UInt64 = 1

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    func validate() throws {
        _ = try TransportChoice(parsing: transport)
    }
}

/// The transport a user chose with `--transport`.
enum TransportChoice: Equatable {
    /// The virtual radio with the built-in simulated world.
    case simulation

    /// Parses `sim`; rejects what this build cannot do yet, saying what to type instead.
    init(parsing text: String) throws {
        switch text {
        case "sim":
            self = .simulation
        case let scenario where scenario.hasPrefix("sim:"):
            throw ValidationError(
                "scenario files (\(scenario)) are not supported yet; use --transport sim for the built-in world")
        case let bluez where bluez == "bluez" || bluez.hasPrefix("bluez:"):
            throw ValidationError(
                "the BlueZ transport (\(text)) is not available in this build yet; use --transport sim")
        default:
            throw ValidationError("unknown transport \"\(text)\": use sim, sim:PATH, bluez or bluez:hciN")
        }
    }
}
