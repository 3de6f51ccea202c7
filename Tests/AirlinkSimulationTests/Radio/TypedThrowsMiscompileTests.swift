import AirlinkCore
import AirlinkSimulation
import Testing

/// Guards against a Swift 6.3.1 miscompilation (Linux x86_64) of calls to some `async throws(E)`
/// functions: depending on the parameters' layout and the size of `E`, the call jumps to a bad
/// address and the process dies. With `AirlinkError` eighty-odd bytes wide, the seam's
/// `discoverDescriptors(_:of:in:)` crashed in debug builds and `discoverCharacteristics(_:of:uuids:)`
/// in release builds; `AirlinkError` now boxes its fields (one pointer), and these signatures pass.
/// The same function with two parameters swapped still crashes, so the bug is not gone: if this suite
/// crashes after a change to `AirlinkError` or to the seam, that is why.
@Suite struct TypedThrowsMiscompileTests {
    final class Probe: Sendable {
        func seamShaped(_ device: DeviceID, of characteristic: GATTCharacteristic, in service: GATTService)
            async throws(AirlinkError) -> [GATTDescriptor]
        { [] }

        func swapped(_ device: DeviceID, in service: GATTService, of characteristic: GATTCharacteristic)
            async throws(AirlinkError) -> [GATTDescriptor]
        { [] }
    }

    static let characteristic = GATTCharacteristic(
        uuid: .batteryLevel, declarationHandle: ATTHandle(0x0B), valueHandle: ATTHandle(0x0C), properties: .read)
    static let service = GATTService(uuid: .battery, handles: ATTHandle(0x0A)...ATTHandle(0x18))

    @Test func aCallShapedLikeTheSeamSurvives() async throws {
        let probe = Probe()
        let count = try await Task.detached {
            try await probe.seamShaped(Fixture.sensorID, of: Self.characteristic, in: Self.service).count
        }.value
        #expect(count == 0)
    }

    @Test func theSeamsDescriptorDiscoverySurvivesThroughAnExistential() async throws {
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(Fixture.sensor())
        let transport: any Transport = sim.radio
        let descriptors = try await sim.run {
            _ = try await transport.connect(Fixture.sensorID, timeout: .seconds(5))
            let service = try await transport.discoverServices(Fixture.sensorID, uuids: [Fixture.service])[0]
            let characteristic = try await transport.discoverCharacteristics(
                Fixture.sensorID, of: service, uuids: [Fixture.counter])[0]
            return try await transport.discoverDescriptors(Fixture.sensorID, of: characteristic, in: service)
        }
        #expect(descriptors.map(\.uuid) == [.clientCharacteristicConfiguration, .characteristicUserDescription])
    }

    @Test(
        .disabled("crashes the process with Swift 6.3.1 in debug builds: the miscompilation this suite guards against"))
    func theSwappedSignatureStillCrashes() async throws {
        let probe = Probe()
        let count = try await Task.detached {
            try await probe.swapped(Fixture.sensorID, in: Self.service, of: Self.characteristic).count
        }.value
        #expect(count == 0)
    }
}
