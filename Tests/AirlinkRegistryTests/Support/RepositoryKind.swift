import AirlinkCore
import AirlinkRegistry
import AirlinkRegistrySQLite
import AirlinkTestSupport
import Testing

/// One of the repositories the contract suite runs on: how to open it on a file in a directory.
struct RepositoryKind: Sendable, CustomTestStringConvertible {
    /// `json` or `sqlite`, as test names show it.
    let name: String
    /// The store's file name.
    let fileName: String
    /// Opens a repository on the file at a path.
    let open: @Sendable (String) throws(AirlinkError) -> any DeviceRepository

    var testDescription: String { name }

    /// Opens a repository on this kind's file in `directory`.
    func open(in directory: TemporaryDirectory) throws(AirlinkError) -> any DeviceRepository {
        try open(directory.file(fileName))
    }

    static let json = RepositoryKind(name: "json", fileName: "devices.json") { path in
        JSONFileDeviceRepository(path: path)
    }
    static let sqlite = RepositoryKind(name: "sqlite", fileName: "devices.sqlite") { path throws(AirlinkError) in
        try SQLiteDeviceRepository(path: path)
    }

    /// Every repository Airlink ships.
    static let all: [RepositoryKind] = [.json, .sqlite]

    /// The kind named `name`.
    static func named(_ name: String) -> RepositoryKind? { all.first { $0.name == name } }
}
