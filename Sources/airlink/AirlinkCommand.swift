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
        subcommands: [
            ScanCommand.self,
            ConnectCommand.self,
            ReadCommand.self,
            WriteCommand.self,
            SubscribeCommand.self,
            DevicesCommand.self,
            ForgetCommand.self,
            SensorTagCommand.self,
            ThermostatCommand.self,
            BatteryCommand.self,
            InspectCommand.self,
            ObserveCommand.self,
            SimulateCommand.self,
            ExploreCommand.self,
            RecordCommand.self,
        ])

    /// Parses and runs the command as ArgumentParser's own `main` does, but prints every error
    /// message with its control characters escaped: messages echo what was typed (and errors may
    /// carry a device's name), which must not reach the terminal raw.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if message.isEmpty {
            } else if code == .success {
                print(message.escapingControlCharacters(keepingNewlines: true))
            } else {
                writeError(message)
            }
            #if canImport(Glibc)
                Glibc.exit(code.rawValue)
            #else
                Darwin.exit(code.rawValue)
            #endif
        }
    }
}
