import AirlinkCore
import AirlinkSimulation
import Testing

/// A reproduction of a Swift 6.3.1 (Linux x86_64, debug and release) miscompilation that the
/// `Transport.discoverDescriptors(_:of:in:)` signature hits: an `async throws(AirlinkError)` function
/// taking `(DeviceID, GATTCharacteristic, GATTService)` crashes the process when called (a jump to
/// address 0), whatever its body. The same function with the last two parameters swapped, with
/// `Int` for the first, or with an `ATTHandle` for the service, works. Until the seam's signature
/// changes, call ``VirtualRadio/discoverDescriptors(_:of:through:)``.
@Suite struct TypedThrowsMiscompileTests {
    final class Probe: Sendable {
        func crashing(_ device: DeviceID, of characteristic: GATTCharacteristic, in service: GATTService)
            async throws(AirlinkError) -> [GATTDescriptor]
        { [] }

        func working(_ device: DeviceID, in service: GATTService, of characteristic: GATTCharacteristic)
            async throws(AirlinkError) -> [GATTDescriptor]
        { [] }
    }

    static let characteristic = GATTCharacteristic(
        uuid: .batteryLevel, declarationHandle: ATTHandle(0x0B), valueHandle: ATTHandle(0x0C), properties: .read)
    static let service = GATTService(uuid: .battery, handles: ATTHandle(0x0A)...ATTHandle(0x18))

    @Test func theSwappedSignatureWorks() async throws {
        let probe = Probe()
        let count = try await Task.detached {
            try await probe.working(Fixture.sensorID, in: Self.service, of: Self.characteristic).count
        }.value
        #expect(count == 0)
    }

    @Test(.disabled("crashes the test process with Swift 6.3.1: enable once the toolchain or the seam changes"))
    func theSeamSignatureCrashes() async throws {
        let probe = Probe()
        let count = try await Task.detached {
            try await probe.crashing(Fixture.sensorID, of: Self.characteristic, in: Self.service).count
        }.value
        #expect(count == 0)
    }
}
