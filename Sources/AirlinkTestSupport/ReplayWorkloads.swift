import Airlink
import AirlinkCore
import AirlinkRegistry
import AirlinkSimulation

/// A replayed recording far larger than a real device's, connected to as `airlink connect ID --transport
/// sim:FILE --registry PATH` does: every service, characteristic and descriptor discovered, the registry keeping
/// the cached database. Its cost grew with the square of the services while every operation saved the whole
/// database; the tests check what it does, `Benchmarks/ReplayBenchmarks` measures its curve.
package enum ReplayWorkloads {
    /// The recorded device's address.
    package static let device: DeviceID = "C0:FF:EE:00:00:09"

    /// A recording (the YAML `airlink record` writes) of `count` services of one readable characteristic each,
    /// from handle 0x0010.
    package static func recording(services count: Int) -> String {
        var lines = [
            "recording: 1", "name: \"Big\"", "id: \"\(device)\"", "transport: \"sim\"", "advertising:",
            "  interval: 0.1s", "  connectable: true", "  data: \"0201060409426967\"", "services:",
        ]
        for index in 0..<count {
            let handle = 0x10 + 3 * index
            lines += [
                "  - uuid: \"\(String(0xA000 + index, radix: 16, uppercase: true))\"",
                "    handles: [\(handle), \(handle + 2)]", "    characteristics:",
                "      - uuid: \"\(String(0xB000 + index, radix: 16, uppercase: true))\"",
                "        handle: \(handle + 1)", "        valueHandle: \(handle + 2)", "        properties: [read]",
                "        value: \"01\"",
            ]
        }
        lines += ["session:", "  duration: 1s", "  subscribed: []", "  notifications: []"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Connects to `spec` (a replayed recording) on a new simulation, discovers every service, characteristic
    /// and descriptor through the layers, with a registry stored as JSON at `registryPath` keeping the cached
    /// database, then disconnects once the registry has it.
    ///
    /// - Returns: the services discovered and the services the registry's cached database holds.
    package static func connectAndDiscover(_ spec: PeripheralSpec, registryPath: String) async throws -> (
        discovered: Int, cached: Int
    ) {
        let sim = Simulation(seed: 1, strict: true, logger: LayersWorkloads.quiet)
        _ = try sim.add(spec)
        let registry = DeviceRegistry(repository: JSONFileDeviceRepository(path: registryPath))
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment, registry: registry)
        let connection = manager.connection(to: spec.id)
        let discovered = try await sim.run {
            try await connection.connect(timeout: .seconds(10))
            let services = try await connection.services.discover()
            for service in services {
                for characteristic in try await service.discoverCharacteristics() {
                    _ = try await service.discoverDescriptors(of: characteristic.uuid)
                }
            }
            await connection.disconnect()
            await manager.waitForRecords()
            return services.count
        }
        manager.shutdown()
        return (discovered, try await registry.record(for: spec.id)?.database?.services.count ?? 0)
    }
}
