import ArgumentParser

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
        ])
}
