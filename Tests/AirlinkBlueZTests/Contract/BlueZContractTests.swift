import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkTransportContract
import Foundation
import Testing

@testable import AirlinkBlueZ

/// The contract world on the fake BlueZ: a fresh transport on a reset fixture; peripheral verbs are
/// the fixture's controls.
struct BlueZContractWorld: TransportContractWorld {
    let fake: FakeBlueZ
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"
    let battery: DeviceID = "F4:77:E2:00:00:02/random"
    /// When the world began, on the real clock: the fake BlueZ is another process.
    let origin = ContinuousClock.now

    static func fresh() async throws -> BlueZContractWorld { BlueZContractWorld(fake: try await FakeBlueZ.fresh()) }

    func makeTransport() async throws -> any Transport { try await fake.transport() }

    private func characteristicPath(_ device: DeviceID, valueHandle: ATTHandle) -> String {
        let declaration = valueHandle.rawValue - 1
        let service =
            device == thermostat ? (declaration < 0x0011 ? 0x000A : 0x0011) : (declaration < 0x000E ? 0x000A : 0x000E)
        return FakeBlueZ.devicePath(device.address!.description)
            + String(format: "/service%04x/char%04x", service, declaration)
    }

    func peripheralNotifies(_ device: DeviceID, valueHandle: ATTHandle, value: [UInt8]) async throws {
        try await fake.notify(characteristicPath(device, valueHandle: valueHandle), value)
    }

    func peripheralDropsLink(_ device: DeviceID) async throws {
        try await fake.dropLink(FakeBlueZ.devicePath(device.address!.description), reason: "org.bluez.Reason.Timeout")
    }

    /// As the real bluetoothd does it: the objects go at once, the new ones come when its discovery of the changed
    /// range ends, here a second later (five quiet periods of the fixture's transport; about what bluetoothd took on
    /// the real stack, RealBlueZContractTests).
    func thermostatMovesItsDatabase() async throws {
        try await fake.changeServicesAfterDiscovery(
            FakeBlueZ.devicePath(thermostat.address!.description), json: ContractPeripherals.movedThermostatJSON,
            discovery: .seconds(1))
    }

    func peripheralIgnoresNextRead(_ device: DeviceID, valueHandle: ATTHandle) async throws {
        try await fake.hangNext("ReadValue", on: characteristicPath(device, valueHandle: valueHandle))
    }

    func close(_ transport: any Transport) async throws { try #require(transport as? BlueZTransport).close() }

    func now() -> Duration { origin.duration(to: .now) }

    /// Races `work` against a sleep of `timeout` in real time (the fake BlueZ is another process).
    func within<Value: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async -> Value?) async -> Value? {
        await valueWithin(timeout, work)
    }

    func peripheralFailsNextRead(_ device: DeviceID, valueHandle: ATTHandle, with error: ATTError) async throws {
        let code = String(error.rawValue, radix: 16)
        try await fake.failNext(
            "ReadValue", on: characteristicPath(device, valueHandle: valueHandle), error: "org.bluez.Error.Failed",
            text: "Operation failed with ATT error: 0x" + (code.count == 1 ? "0" : "") + code)
    }
}
