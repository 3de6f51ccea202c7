import ArgumentParser

/// A first argument that names no command, reported as such.
///
/// ArgumentParser reports `airlink nonsense` as an unexpected argument, and `airlink nonsense --json` as an unknown
/// option `--json` (the root command has no such option), which names the wrong word. When the command line's first
/// word is not an option, `help`, or one of the commands, the CLI says so and lists the commands instead.
enum UnknownCommand {
    /// The message for `arguments` (without the program's name) when their first word names no command, else `nil`.
    ///
    /// - Parameters:
    ///   - arguments: the command line after the program's name.
    ///   - commands: the root command's subcommands.
    static func message(for arguments: [String], commands: [any ParsableCommand.Type]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help" else { return nil }
        let names = commands.compactMap { $0.configuration.commandName }
        guard !names.contains(first) else { return nil }
        return "Unknown command '\(first)'. The commands are: \(names.joined(separator: ", ")). "
            + "See 'airlink --help'."
    }
}
