import Airlink
import AirlinkCore
import AirlinkProfiles
import Synchronization

/// Finds a thermostat by its service, connects with exponential back-off reconnection, subscribes to
/// its temperature and keeps what it saw.
///
/// The monitor takes a transport and an environment, never a concrete transport: the app opens one
/// with `TransportSelector` (BlueZ or the virtual radio), tests hand it a `Simulation`'s radio and
/// environment. The subscription is taken once; after a link loss the layers reconnect (the
/// strategy) and restore the notifications, so the same stream goes on.
public final class ThermostatMonitor: Sendable {
    /// How the monitor looks for, connects to and keeps the thermostat.
    public struct Configuration: Sendable {
        /// How long to scan for a thermostat before giving up.
        public var scanTimeout: Duration
        /// The first connection attempt's timeout.
        public var connectTimeout: Duration
        /// What to do when the link is lost: wait 1 s, 2 s, 4 s ... up to 30 s, with full jitter, without limit.
        public var reconnection: ExponentialBackoffReconnectionStrategy

        /// Creates a configuration.
        public init(
            scanTimeout: Duration = .seconds(10), connectTimeout: Duration = .seconds(5),
            reconnection: ExponentialBackoffReconnectionStrategy = .exponential(
                initialDelay: .seconds(1), multiplier: 2, maximumDelay: .seconds(30), timeout: .seconds(5))
        ) {
            self.scanTimeout = scanTimeout
            self.connectTimeout = connectTimeout
            self.reconnection = reconnection
        }
    }

    /// The device manager the monitor works through.
    public let manager: DeviceManager
    /// Where the monitor takes its clock and spawns its tasks from.
    public let environment: AirlinkEnvironment
    /// The configuration.
    public let configuration: Configuration
    private let onObservation: @Sendable (ThermostatObservation) -> Void
    private let seen = Mutex<[ThermostatObservation]>([])

    /// A monitor on a transport, with a device manager of its own.
    ///
    /// - Parameters:
    ///   - transport: the transport (`OpenedTransport.transport`, or a `Simulation`'s `radio`).
    ///   - environment: its environment (`OpenedTransport.environment`, or a `Simulation`'s).
    ///   - configuration: timeouts and reconnection.
    ///   - onObservation: called with each observation as it happens (an app prints it).
    public convenience init(
        transport: any Transport, environment: AirlinkEnvironment, configuration: Configuration = .init(),
        onObservation: @escaping @Sendable (ThermostatObservation) -> Void = { _ in }
    ) {
        self.init(
            manager: DeviceManager(transport: transport, environment: environment), environment: environment,
            configuration: configuration, onObservation: onObservation)
    }

    /// A monitor working through an existing device manager (a scenario's, in tests).
    public init(
        manager: DeviceManager, environment: AirlinkEnvironment, configuration: Configuration = .init(),
        onObservation: @escaping @Sendable (ThermostatObservation) -> Void = { _ in }
    ) {
        self.manager = manager
        self.environment = environment
        self.configuration = configuration
        self.onObservation = onObservation
    }

    /// Everything seen so far, in order.
    public var observations: [ThermostatObservation] { seen.withLock { $0 } }

    /// The temperatures seen so far, in order.
    public var readings: [ThermostatReading] {
        observations.compactMap { observation in
            if case .reading(let reading) = observation.kind { return reading }
            return nil
        }
    }

    /// The connection events seen so far, in order.
    public var connectionEvents: [ConnectionEvent] {
        observations.compactMap { observation in
            if case .connection(let event) = observation.kind { return event }
            return nil
        }
    }

    /// Scans until a device advertising the thermostat temperature service is found.
    ///
    /// - Returns: the first such device.
    /// - Throws: `deviceNotFound` when the scan ends without one; what `DeviceManager.discover` throws.
    public func find() async throws(AirlinkError) -> DiscoveredDevice {
        let discovery = try await manager.discover(
            services: [.thermostatTemperatureService], timeout: configuration.scanTimeout)
        for await event in discovery.events {
            switch event {
            case .started:
                continue
            case .discovered(let device):
                await discovery.stop()
                note(.found(device))
                return device
            case .stopped(let reason):
                throw AirlinkError(
                    .deviceNotFound,
                    "no device advertising the thermostat temperature service was found (the scan stopped: \(reason)); "
                        + "is the thermostat on and in range?")
            }
        }
        throw AirlinkError(.deviceNotFound, "the scan for a thermostat ended without reporting a device")
    }

    /// Finds a thermostat, connects, subscribes to its temperature and records what happens for `duration`
    /// on the environment's clock (virtual time on the simulation), then disconnects.
    ///
    /// - Throws: what ``find()``, the first connection and enabling the notifications throw. Link losses
    ///   after that do not throw: they are observed, and the strategy reconnects.
    public func monitor(for duration: Duration) async throws(AirlinkError) {
        let start = environment.clock.now
        let device = try await find()
        let connection = manager.connection(to: device.id, reconnection: configuration.reconnection)
        let events = connection.events()
        let eventsTask = environment.spawn { [self] in
            for await event in events { note(.connection(event)) }
        }
        defer { eventsTask.cancel() }
        let readings: TypedValues<ThermostatReading>
        do throws(AirlinkError) {
            try await connection.connect(timeout: configuration.connectTimeout)
            readings = try await ThermostatService(connection).temperatures()
        } catch {
            await connection.disconnect()  // no reconnection for a monitor that gave up
            throw error
        }
        let readingsTask = environment.spawn { [self] in
            for await reading in readings { note(.reading(reading)) }
        }
        // Cancelled only if the caller is: then the monitor stops early, as asked.
        try? await environment.clock.sleep(until: start.advanced(by: duration))
        readingsTask.cancel()
        await readingsTask.value
        await connection.disconnect()
        eventsTask.cancel()
        await eventsTask.value
    }

    private func note(_ kind: ThermostatObservation.Kind) {
        let observation = ThermostatObservation(time: environment.clock.now, kind: kind)
        seen.withLock { $0.append(observation) }
        onObservation(observation)
    }
}
