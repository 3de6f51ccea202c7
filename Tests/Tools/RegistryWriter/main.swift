// The registry kill test's child process: `airlink-registry-writer json|sqlite STORE ACKS` saves
// records into the store until it is killed (RegistryWriterProbe). Not a tool for users.
import AirlinkRegistry
import AirlinkRegistrySQLite
import AirlinkTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Writes `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    let bytes = Array("airlink-registry-writer: \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 3 else {
    fail("usage: airlink-registry-writer json|sqlite STORE ACKS", status: 64)
}
let (kind, path, acks) = (arguments[arguments.startIndex], arguments[arguments.startIndex + 1], arguments.last!)
do {
    let repository: any DeviceRepository
    switch kind {
    case "json": repository = JSONFileDeviceRepository(path: path)
    case "sqlite": repository = try SQLiteDeviceRepository(path: path)
    default:
        fail("unknown store kind \(kind): json or sqlite", status: 64)
    }
    try await RegistryWriterProbe.run(repository, acks: acks)
} catch {
    fail("\(error)", status: 1)
}
