// Swift 6.3.1, x86_64 Linux, debug (-Onone): an async throwing call whose arguments include several
// values holding a 16-byte-aligned UInt128 jumps to a bad address (SIGSEGV); the same program built with
// -O prints "intact", and so does it with the UUID stored as two UInt64 halves. Airlink's workaround:
// BluetoothUUID stores two halves (Docs/adr/0005-bluetoothuuid-storage.md). Related upstream report
// (aarch64, UInt128 passed to an async requirement at -Onone): https://github.com/swiftlang/swift/issues/91204
// Run: bash Scripts/compiler-repros/run
struct UUID128: Hashable, Sendable { var value: UInt128 }
struct Device: Hashable, Sendable { var address: UInt64 }
struct Characteristic: Hashable, Sendable { var uuid: UUID128; var handle: UInt16; var valueHandle: UInt16 }
struct Service: Hashable, Sendable { var uuid: UUID128; var handles: ClosedRange<UInt16> }
struct Failure: Error { var code: Int; var message: String; var context: String?; var detail: [String] }

final class Probe: Sendable {
    func descriptors(_ device: Device, of characteristic: Characteristic, in service: Service)
        async throws(Failure) -> [UUID128]
    { [characteristic.uuid, service.uuid, UUID128(value: UInt128(device.address))] }
}

@main enum Main {
    static func main() async throws {
        let probe = Probe()
        let characteristic = Characteristic(uuid: UUID128(value: 0x2A19), handle: 0x0B, valueHandle: 0x0C)
        let service = Service(uuid: UUID128(value: 0x180F), handles: 0x0A...0x18)
        let result = try await Task.detached {
            try await probe.descriptors(Device(address: 0xC0FFEE), of: characteristic, in: service)
        }.value
        print(result == [characteristic.uuid, service.uuid, UUID128(value: 0xC0FFEE)] ? "intact" : "scrambled: \(result)")
    }
}
