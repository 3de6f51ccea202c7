import AirlinkCore
import AirlinkRegistry
import ArgumentParser

/// `airlink forget ID`: removes a device from the registry.
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget", abstract: "Remove a device from the registry.")

    @OptionGroup var registry: RegistryOptions

    @Argument(help: "The device id, as airlink devices lists it; the address alone will do if one device has it.")
    var id: String

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        _ = try Arguments.device(id)
    }

    /// What `forget` reports.
    struct Report: Encodable {
        var id: String
        var removed: Bool
    }

    func run() async throws {
        let store = try registry.open()
        let query = try DeviceQuery(parsing: id)
        let device = try query.resolve(among: try await store.knownDevices().map(\.id))
        let removed = try await store.forget(device)
        if json {
            print(Output.json(Report(id: device.description, removed: removed)))
            if !removed { throw ExitCode(ExitStatus.unusable) }
        } else if removed {
            print("Forgot \(device).")
        } else {
            throw CommandFailure(
                "\(device) was not in \(registry.location); nothing to forget (airlink devices lists what it holds)",
                status: ExitStatus.unusable)
        }
    }
}
