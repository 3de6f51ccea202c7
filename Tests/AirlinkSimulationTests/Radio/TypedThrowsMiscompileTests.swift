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
    /// Functions of the seam's shape whose result is built from every argument, so that a call that
    /// survives but scrambles its arguments fails the check too.
    final class Probe: Sendable {
        func seamShaped(_ device: DeviceID, of characteristic: GATTCharacteristic, in service: GATTService)
            async throws(AirlinkError) -> [GATTDescriptor]
        { Self.descriptors(device, characteristic, service) }

        func swapped(_ device: DeviceID, in service: GATTService, of characteristic: GATTCharacteristic)
            async throws(AirlinkError) -> [GATTDescriptor]
        { Self.descriptors(device, characteristic, service) }

        /// One descriptor per argument: the characteristic's UUID at its value handle, the service's UUID
        /// at its last handle, and a descriptor whose handle is the device address's low byte.
        static func descriptors(_ device: DeviceID, _ characteristic: GATTCharacteristic, _ service: GATTService)
            -> [GATTDescriptor]
        {
            [
                GATTDescriptor(uuid: characteristic.uuid, handle: characteristic.valueHandle),
                GATTDescriptor(uuid: service.uuid, handle: service.handles.upperBound),
                GATTDescriptor(uuid: .characteristicUserDescription, handle: ATTHandle(lowByte(of: device))),
            ]
        }

        /// The low byte of the device's address (0 for an opaque id).
        ///
        /// Not inlined: with Swift 6.3.1, `swift build -c release --build-tests` crashed compiling this
        /// file ("Found ownership error?!", CopyPropagation on the initializer of ``expected``, where
        /// `DeviceID.address`'s switch over its kind was inlined). The crash is the optimizer's, not the
        /// typed-throws miscompile this suite guards against; keeping the expression out of line
        /// avoids it and leaves the checks as they were. Likely the crash reported upstream as
        /// https://github.com/swiftlang/swift/issues/91756 (CopyPropagation's ownership verifier on an enum
        /// switch reached through inlined getters, -O).
        @inline(never)
        static func lowByte(of device: DeviceID) -> UInt16 {
            UInt16(truncatingIfNeeded: device.address.map(\.value) ?? 0) & 0xFF
        }
    }

    /// What ``Probe`` returns when its arguments arrive intact.
    static let expected = [
        GATTDescriptor(uuid: .batteryLevel, handle: ATTHandle(0x0C)),
        GATTDescriptor(uuid: .battery, handle: ATTHandle(0x18)),
        GATTDescriptor(uuid: .characteristicUserDescription, handle: ATTHandle(Probe.lowByte(of: Fixture.sensorID))),
    ]

    static let characteristic = GATTCharacteristic(
        uuid: .batteryLevel, declarationHandle: ATTHandle(0x0B), valueHandle: ATTHandle(0x0C), properties: .read)
    static let service = GATTService(uuid: .battery, handles: ATTHandle(0x0A)...ATTHandle(0x18))

    @Test func aCallShapedLikeTheSeamSurvives() async throws {
        let probe = Probe()
        let descriptors = try await Task.detached {
            try await probe.seamShaped(Fixture.sensorID, of: Self.characteristic, in: Self.service)
        }.value
        #expect(descriptors == Self.expected)
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
        let descriptors = try await Task.detached {
            try await probe.swapped(Fixture.sensorID, in: Self.service, of: Self.characteristic)
        }.value
        #expect(descriptors == Self.expected)
    }
}
