import AirlinkCore
import AirlinkRegistry
import AirlinkRegistrySQLite
import ArgumentParser
import Foundation

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
        // try?: for a message only; opening the registry reports why its default path has none (no HOME).
        registry ?? ((try? RegistryLocation.defaultPath(of: JSONFileDeviceRepository.defaultFileName)) ?? "?")
    }

    /// Opens the registry.
    ///
    /// A `--registry` path in a directory that does not exist is refused (``ExitStatus/unusable``): it is a
    /// typing slip, and reading it as an empty registry would say "no remembered devices" about a registry
    /// that is elsewhere. (The default path's directory is made when the first record is saved.)
    ///
    /// - Throws: ``CommandFailure`` for a directory that does not exist; ``/AirlinkCore/AirlinkError`` when
    ///   the file cannot be opened (its path in the message).
    func open() throws -> DeviceRegistry {
        guard let registry else { return DeviceRegistry(repository: try JSONFileDeviceRepository()) }
        let path = registry.hasPrefix("sqlite:") ? String(registry.dropFirst(7)) : registry
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw CommandFailure(
                "--registry \(registry): the directory \(directory) does not exist; create it (mkdir -p "
                    + "\(directory)) or give a path in an existing directory", status: ExitStatus.unusable)
        }
        if registry.hasPrefix("sqlite:") {
            return DeviceRegistry(repository: try SQLiteDeviceRepository(path: String(registry.dropFirst(7))))
        }
        return DeviceRegistry(repository: JSONFileDeviceRepository(path: registry))
    }
}
