import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation

/// One device a scan heard, with its latest advertisement.
struct ScannedDevice: Sendable {
    var id: DeviceID
    var name: String?
    var rssi: Int
    var isConnectable: Bool
    var services: [BluetoothUUID]
    var advertisementCount: Int
}

/// How far a scan got, for progress lines.
struct ScanProgress: Sendable {
    var elapsed: Duration
    var devices: Int
}

/// Runs a scan of the built-in simulated world in virtual time.
enum ScanRun {
    static func simulated(
        seed: UInt64, duration: Duration, services: [BluetoothUUID]?,
        progress: @escaping @Sendable (ScanProgress) -> Void
    ) async throws -> [ScannedDevice] {
        let sim = Simulation(seed: seed)
        try sim.add(SimulatedWorld.builtIn)
        let radio = sim.radio
        let events = radio.events()
        let collector = sim.spawn { () -> [ScannedDevice] in
            var devices: [ScannedDevice] = []
            for await event in events {
                guard case .advertisement(let id, let advertisement) = event else { continue }
                let device = ScannedDevice(
                    id: id, name: advertisement.name, rssi: Int(advertisement.rssi ?? 0),
                    isConnectable: advertisement.isConnectable,
                    services: advertisement.serviceUUIDs + advertisement.serviceData.map(\.uuid), advertisementCount: 1)
                if let index = devices.firstIndex(where: { $0.id == id }) {
                    devices[index].rssi = device.rssi
                    devices[index].advertisementCount += 1
                    if device.name != nil { devices[index].name = device.name }
                } else {
                    devices.append(device)
                }
            }
            return devices
        }
        try await sim.run { try await radio.startScan(ScanFilter(services: services, allowDuplicates: true)) }
        var elapsed = Duration.zero
        while elapsed < duration {
            let step = min(.seconds(1), duration - elapsed)
            try await sim.run(for: step)
            elapsed += step
            let count = Set(
                sim.trace.events(in: "scan").compactMap { $0.split(separator: " ").first }.filter { $0.contains(":") }
            ).count
            progress(ScanProgress(elapsed: elapsed, devices: count))
        }
        await radio.stopScan()
        radio.shutdown()
        return try await sim.run { await collector.value }.sorted { $0.rssi > $1.rssi }
    }
}
