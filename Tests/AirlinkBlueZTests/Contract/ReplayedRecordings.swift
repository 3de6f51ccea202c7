import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import AirlinkTransportContract
import Testing

/// The two reference peripherals recorded, written as YAML, read back and replayed: a recording must stand in for
/// its device in the contract's checks. Recorded without subscriptions, so a replay sends no recorded notifications
/// of its own into the checks that count them.
enum ReplayedRecordings {
    /// Recorded through the virtual radio with `DeviceRecorder`, once per process.
    static let throughTheRadio: Task<[PeripheralSpec], any Error> = Task {
        var specs: [PeripheralSpec] = []
        for spec in [ContractPeripherals.thermostat, ContractPeripherals.battery] {
            let simulation = Simulation(seed: 1, strict: true)
            _ = try simulation.add(spec)
            let recorder = DeviceRecorder(transport: simulation.radio, environment: simulation.environment)
            let options = RecordingOptions(duration: .seconds(1), subscribe: .uuids([]))
            let id = spec.id
            let (recording, _) = try await simulation.run { try await recorder.record(id, options: options) }
            let reread = try DeviceRecording.parse(recording.yaml, source: "\(spec.name).yaml")
            specs.append(try reread.peripheralSpec())
        }
        return specs
    }

    /// The fake BlueZ's thermostat and battery recorded through `BlueZTransport`, as a user records a real device,
    /// once per process (inside a suite with the fake BlueZ's trait).
    static let throughBlueZ: Task<[PeripheralSpec], any Error> = Task {
        let fake = try await FakeBlueZ.fresh()
        defer { fake.stop() }
        let transport = try await fake.transport()
        defer { transport.close() }
        let recorder = DeviceRecorder(transport: transport, environment: .live())
        var specs: [PeripheralSpec] = []
        for spec in [ContractPeripherals.thermostat, ContractPeripherals.battery] {
            let options = RecordingOptions(
                advertisingWindow: .seconds(1), duration: .seconds(1), subscribe: .uuids([]))
            let (recording, _) = try await recorder.record(spec.id, options: options)
            guard recording.transport.hasPrefix("bluez") else {
                throw RecordingWentElsewhere(transport: recording.transport)
            }
            let reread = try DeviceRecording.parse(recording.yaml, source: "\(spec.name).yaml")
            specs.append(try reread.peripheralSpec())
        }
        return specs
    }
}

/// A recording meant to come through BlueZ names another transport.
struct RecordingWentElsewhere: Error, CustomStringConvertible {
    var transport: String
    var description: String { "the recording names the transport \(transport), not bluez" }
}
