import AirlinkCore
import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `airlink`: Bluetooth Low Energy from the command line, on the virtual radio or BlueZ.
@main
struct AirlinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "airlink",
        abstract: "Scan, connect and explore Bluetooth LE devices; simulated by default.",
        version: VersionText.text,
        subcommands: [
            ScanCommand.self,
            ConnectCommand.self,
            ReadCommand.self,
            PairCommand.self,
            WriteCommand.self,
            SubscribeCommand.self,
            DevicesCommand.self,
            ForgetCommand.self,
            RefreshCacheCommand.self,
            SensorTagCommand.self,
            ThermostatCommand.self,
            BatteryCommand.self,
            InspectCommand.self,
            ObserveCommand.self,
            SimulateCommand.self,
            ExploreCommand.self,
            DoctorCommand.self,
            RecordCommand.self,
            ControllerCommand.self,
        ])

    /// Parses and runs the command as ArgumentParser's own `main` does, with one voice for errors: a
    /// parsing error prints ArgumentParser's message and usage; an error while the command runs prints one
    /// `Error:` line and exits with its status from ``ExitStatus`` (Docs/CLI.md, "Exit codes"). Every
    /// message is printed with its control characters escaped: messages echo what was typed (and errors
    /// may carry a device's name), which must not reach the terminal raw. With `--json`, the error is one JSON
    /// object on standard error instead (``JSONErrorReport``).
    static func main() async {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            let code = exitCode(for: error)
            let arguments = Array(CommandLine.arguments.dropFirst())
            let unknown = UnknownCommand.message(for: arguments, commands: configuration.subcommands)
            if let unknown, code != .success {
                if JSONErrorReport.isRequested {
                    JSONErrorReport(status: code.rawValue, message: unknown).write()
                } else {
                    Terminal.reportError(unknown)
                }
                exit(code.rawValue)
            }
            let message = fullMessage(for: error)
            if code != .success, JSONErrorReport.isRequested {
                let text = Self.message(for: error)
                JSONErrorReport(
                    status: code.rawValue, message: text.hasPrefix("Error: ") ? String(text.dropFirst(7)) : text
                ).write()
            } else if message.isEmpty {
            } else if code == .success {
                print(message.escapingControlCharacters(keepingNewlines: true))
            } else if message.hasPrefix("Error: ") {
                Terminal.reportError(String(message.dropFirst("Error: ".count)))
            } else {
                writeError(message)
            }
            exit(code.rawValue)
        }
        do {
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            // A help request comes here: parsing `--help` gives ArgumentParser's help command, whose run throws it.
            if exitCode(for: error) == .success {
                let message = fullMessage(for: error)
                if !message.isEmpty { print(message.escapingControlCharacters(keepingNewlines: true)) }
                exit(ExitStatus.success)
            }
            let (message, status) = ExitStatus.report(error)
            // An ExitCode (no message) ends a command that has reported its result itself, in JSON too.
            if JSONErrorReport.isRequested, message != nil {
                JSONErrorReport(error, message: message, status: status).write()
            } else if let message {
                Terminal.reportError(message)
            }
            exit(status)
        }
    }

    private static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(status)
        #else
            Darwin.exit(status)
        #endif
    }
}
