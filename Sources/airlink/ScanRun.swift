import Airlink
import AirlinkCore

/// One device a scan heard, with its latest advertisement.
struct ScannedDevice: Sendable {
    var id: DeviceID
    var name: String?
    var rssi: Int
    var isConnectable: Bool
    var services: [BluetoothUUID]
    var manufacturerData: [Advertisement.ManufacturerData]
    var advertisementCount: Int

    init(_ device: DiscoveredDevice) {
        id = device.id
        name = device.name
        rssi = device.rssi ?? 0
        isConnectable = device.advertisement.isConnectable
        services = device.advertisement.advertisedServices
        manufacturerData = device.advertisement.manufacturerData
        advertisementCount = device.sightings
    }
}

/// How far a scan got, for progress lines.
struct ScanProgress: Sendable {
    var elapsed: Duration
    var devices: Int
}

/// Runs a scan through the layers' discovery, on whichever transport the session holds.
enum ScanRun {
    static func run(
        in session: Session, duration: Duration, name: String?, services: [BluetoothUUID]?, active: Bool = true,
        progress: @escaping @Sendable (ScanProgress) -> Void
    ) async throws -> [ScannedDevice] {
        let (transport, environment) = (session.transport, session.environment)
        return try await session.run { () async throws -> [ScannedDevice] in
            let manager = DeviceManager(transport: transport, environment: environment)
            defer { manager.shutdown() }
            let discovery = try await manager.discover(
                named: name, services: services, timeout: duration,
                options: ScanOptions(reportsDuplicates: true, scansActively: active))
            var elapsed = Duration.zero
            while elapsed < duration, discovery.isRunning {
                let step = min(.seconds(1), duration - elapsed)
                try await environment.clock.sleep(for: step)
                elapsed += step
                progress(ScanProgress(elapsed: elapsed, devices: discovery.devices.count))
            }
            _ = await discovery.waitUntilStopped()
            return discovery.devices.map(ScannedDevice.init).sorted { $0.rssi > $1.rssi }
        }
    }
}
