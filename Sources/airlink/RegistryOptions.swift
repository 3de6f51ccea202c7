import AirlinkCore
import AirlinkRegistry
import AirlinkRegistrySQLite
import ArgumentParser

/// `--registry`: where remembered devices are kept.
struct RegistryOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The registry of remembered devices: a JSON file PATH, or sqlite:PATH. Default: devices.json in the "
                + "user's data directory ($XDG_DATA_HOME/airlink or ~/.local/share/airlink).",
            valueName: "path"))
    var registry: String?

    func validate() throws {
        if let registry, registry.isEmpty || registry == "sqlite:" {
            throw ValidationError("--registry needs a path: write --registry PATH (JSON) or --registry sqlite:PATH")
        }
    }

    /// The path the registry lives at, for messages.
    var location: String {
        registry ?? ((try? RegistryLocation.defaultPath(of: JSONFileDeviceRepository.defaultFileName)) ?? "?")
    }

    /// Opens the registry.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` when the file cannot be opened (its path in the message).
    func open() throws(AirlinkError) -> DeviceRegistry {
        guard let registry else { return DeviceRegistry(repository: try JSONFileDeviceRepository()) }
        if registry.hasPrefix("sqlite:") {
            return DeviceRegistry(repository: try SQLiteDeviceRepository(path: String(registry.dropFirst(7))))
        }
        return DeviceRegistry(repository: JSONFileDeviceRepository(path: registry))
    }
}
