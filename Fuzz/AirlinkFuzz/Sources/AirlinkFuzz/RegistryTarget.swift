import AirlinkCore

@testable import AirlinkRegistry

/// Device registry files (JSON): decoding never traps and fails only as corrupt or of a newer
/// version; what decodes encodes to a file that decodes to the same records, and encoding is stable.
let registryTarget = FuzzTarget(name: "registry") { bytes in
    let name = "registry"
    guard let records = try? RegistryDocument.decode(bytes) else { return }
    do {
        let encoded = try RegistryDocument.encode(records.values)
        let again = try RegistryDocument.decode(encoded)
        guard again == records else { violated(name, "decode(encode(r)) != r for \(records.count) records") }
        let reencoded = try RegistryDocument.encode(again.values)
        guard reencoded == encoded else {
            let first = String(decoding: encoded, as: UTF8.self)
            violated(name, "encoding is not stable: \(first) then \(String(decoding: reencoded, as: UTF8.self))")
        }
    } catch {
        violated(name, "records that decoded do not round-trip: \(error)")
    }
}
