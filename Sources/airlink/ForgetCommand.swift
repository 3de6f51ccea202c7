import AirlinkCore
import AirlinkRegistry
import ArgumentParser

/// `airlink forget ID [--cache-only] [--transport T]`: removes a device from the registry (and, when the app
/// bonded with it, the bond on the transport), or only its cached GATT database.
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget", abstract: "Remove a device from the registry.")

    @OptionGroup var registry: RegistryOptions

    @Argument(help: "The device id, as airlink devices lists it; the address alone will do if one device has it.")
    var id: String

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(
        name: .long,
        help:
            "Drop only the device's cached GATT database and hash; the device stays known."
    )
    var cacheOnly = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where the bond is forgotten too, when the registry holds one: sim, bluez, bluez:hciN. "
                + "Default: $AIRLINK_TRANSPORT, else sim.",
            valueName: "transport"))
    var transport: String?

    func validate() throws {
        _ = try Arguments.device(id)
        _ = try transportOptions()
    }

    /// The shared options naming the transport `--transport` gives (validated like every command's).
    private func transportOptions() throws -> GlobalOptions {
        let options = try GlobalOptions.parse(transport.map { ["--transport", $0] } ?? [])
        try options.validate()
        return options
    }

    /// Forgets the bond on the transport (on BlueZ, `Adapter1.RemoveDevice`) before the record goes, so that
    /// the stack keeps no bond the registry no longer lists.
    private func forgetBond(of device: DeviceID) async throws {
        let session = try await Session.open(try transportOptions())
        defer { session.close() }
        try await session.run { await session.transport.forgetBond(device) }
    }

    /// What `forget` reports.
    struct Report: Encodable {
        var id: String
        var removed: Bool
        /// Set with `--cache-only`: what was removed is the cached database, not the device.
        var cacheOnly: Bool?
    }

    func run() async throws {
        let store = try registry.open()
        let query = try DeviceQuery(parsing: id)
        let device = try query.resolve(among: try await store.knownDevices().map(\.id))
        if cacheOnly {
            let removed = try await store.forgetDatabase(of: device)
            if json {
                print(Output.json(Report(id: device.description, removed: removed, cacheOnly: true)))
            } else {
                print(
                    removed
                        ? "Dropped the cached GATT database of \(device); it stays known."
                        : "\(device) has no cached GATT database; nothing to drop.")
            }
            if !removed { throw ExitCode(2) }
            return
        }
        if try await store.record(for: device)?.bond != nil { try await forgetBond(of: device) }
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
