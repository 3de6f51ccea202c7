import AirlinkCore
import Synchronization

/// A running (or finished) scan for devices: the list of what it found, its events, and a way to
/// stop it early. Obtain one from ``DeviceManager/discover(named:services:timeout:options:)``.
///
/// Carries forward WLXBluetoothDevice's `WLXDeviceDiscoverer`. The discovery keeps every matching
/// device once, in the order first seen, with its latest advertisement and RSSI; it reports
/// ``/AirlinkCore/DiscoveryEvent/started``, each ``/AirlinkCore/DiscoveryEvent/discovered(_:)`` and one
/// ``/AirlinkCore/DiscoveryEvent/stopped(_:)``, then ends its ``events`` stream. It stops by itself when its
/// timeout expires.
///
/// ```swift
/// let discovery = try await manager.discover(named: "Tracker.*", timeout: .seconds(5))
/// for await event in discovery.events { if case .discovered(let device) = event { print(device) } }
/// ```
public final class Discovery: ScanClient, Sendable {
    private struct Candidate {
        var name: Advertisement.LocalName?
        var services: [BluetoothUUID] = []
    }

    /// What the discovery heard of a device: its latest advertising PDU and scan response, and the name
    /// it shows.
    private struct Heard {
        var advertising: Advertisement?
        var scanResponse: Advertisement?
        var name: Advertisement.LocalName?

        /// Takes in one report; returns the advertisement as the device now shows.
        mutating func receive(_ report: Advertisement) -> Advertisement {
            if report.isScanResponse { scanResponse = report } else { advertising = report }
            if let new = report.localName { name = name.map { $0.keeping(new) } ?? new }
            return (advertising ?? report).merged(withScanResponse: scanResponse)
        }
    }

    private struct State {
        var devices: [DiscoveredDevice] = []
        var index: [DeviceID: Int] = [:]
        var candidates: [DeviceID: Candidate] = [:]
        var heard: [DeviceID: Heard] = [:]
        var stopReason: DiscoveryStopReason?
        var waiters: [CheckedContinuation<DiscoveryStopReason, Never>] = []
        var timer: Task<Void, Never>?
    }

    /// The discovery's number, from 1 per device manager, as events carry it.
    public let id: Int
    /// The name pattern, if any: a regular expression the whole advertised name must match.
    public let namePattern: String?
    /// The services a device must advertise (at least one), if any.
    public let services: [BluetoothUUID]?
    /// How long the discovery runs unless stopped early.
    public let timeout: Duration
    /// The options the scan was started with: whether repeated advertisements of a device are reported.
    public let options: ScanOptions
    /// The discovery's events, from ``/AirlinkCore/DiscoveryEvent/started`` to
    /// ``/AirlinkCore/DiscoveryEvent/stopped(_:)``; the stream then ends. One consumer; every event also reaches
    /// ``DeviceManager/events(where:)``.
    public let events: EventStream<DiscoveryEvent>

    private let continuation: EventStream<DiscoveryEvent>.Continuation
    private let pattern: CompiledPattern?
    private let state: Mutex<State>
    private let environment: AirlinkEnvironment
    private let bus: EventBus
    private let coordinator: ScanCoordinator

    init(
        id: Int, namePattern: String?, pattern: CompiledPattern?, services: [BluetoothUUID]?,
        timeout: Duration, options: ScanOptions, environment: AirlinkEnvironment, bus: EventBus,
        coordinator: ScanCoordinator
    ) {
        self.id = id
        self.namePattern = namePattern
        self.services = services
        self.timeout = timeout
        self.options = options
        self.environment = environment
        self.bus = bus
        self.coordinator = coordinator
        self.pattern = pattern
        self.state = Mutex(State())
        (events, continuation) = EventStream<DiscoveryEvent>.makeStream()
    }

    /// The devices found so far, in the order first seen, each with its latest advertisement.
    public var devices: [DiscoveredDevice] { state.withLock { $0.devices } }

    /// Whether the discovery still runs.
    public var isRunning: Bool { state.withLock { $0.stopReason == nil } }

    /// Why the discovery stopped, or `nil` while it runs.
    public var stopReason: DiscoveryStopReason? { state.withLock { $0.stopReason } }

    /// Stops the discovery now (reason ``/AirlinkCore/DiscoveryStopReason/stopped``); does nothing if it stopped.
    public func stop() async {
        await stop(.stopped)
    }

    /// Waits until the discovery stops, by its timeout or otherwise.
    ///
    /// - Returns: why it stopped; ``devices`` then holds everything it found.
    @discardableResult
    public func waitUntilStopped() async -> DiscoveryStopReason {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> DiscoveryStopReason? in
                if let reason = state.stopReason { return reason }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    // MARK: Driven by the device manager

    /// The transport filter this discovery needs.
    var scanFilter: ScanFilter {
        ScanFilter(services: services, allowDuplicates: options.reportsDuplicates, isActive: options.scansActively)
    }

    /// Reports the start and arms the timeout.
    func started() {
        publish(.started)
        let timeout = self.timeout
        let clock = environment.clock
        let timer = environment.spawn { [weak self] in
            // try?: sleep throws only when cancelled, as the discovery stopped first
            guard (try? await clock.sleep(for: timeout)) != nil else { return }
            await self?.stop(.timeout)
        }
        state.withLock { $0.timer = timer }
    }

    /// Stops the discovery for `reason`, once.
    func stop(_ reason: DiscoveryStopReason) async {
        guard stopLocally(reason) else { return }
        await coordinator.remove(self)
    }

    /// Marks the discovery stopped and reports it, without waiting for the transport; returns
    /// whether this call stopped it.
    @discardableResult
    func stopLocally(_ reason: DiscoveryStopReason) -> Bool {
        let stopped = state.withLock {
            state -> (timer: Task<Void, Never>?, waiters: [CheckedContinuation<DiscoveryStopReason, Never>])? in
            guard state.stopReason == nil else { return nil }
            state.stopReason = reason
            defer {
                state.waiters.removeAll()
                state.timer = nil
            }
            return (state.timer, state.waiters)
        }
        guard let stopped else { return false }
        stopped.timer?.cancel()
        publish(.stopped(reason))
        continuation.finish()
        for waiter in stopped.waiters { waiter.resume(returning: reason) }
        return true
    }

    /// Applies the filters to an advertisement and records the device when it matches.
    func receive(_ device: DeviceID, _ advertisement: Advertisement) {
        let now = environment.clock.now
        let reportsDuplicates = options.reportsDuplicates
        let services = self.services
        let discovered = state.withLock { state -> DiscoveredDevice? in
            guard state.stopReason == nil else { return nil }
            var heard = state.heard[device] ?? Heard()
            let shown = heard.receive(advertisement)
            state.heard[device] = heard
            if let index = state.index[device] {
                let before = state.devices[index]
                state.devices[index].advertisement = shown
                if let name = heard.name { state.devices[index].name = name.name }
                if let rssi = advertisement.rssi { state.devices[index].rssi = Int(rssi) }
                state.devices[index].lastSeen = now
                // A scan response completes the device (its full name, say), merged into its sighting: never
                // counted as one, and reported again only when every advertisement is (`reportsDuplicates`) and
                // it changes what the device shows. Without duplicates a device is reported once.
                guard !advertisement.isScanResponse else {
                    let changed = before.advertisement != shown || before.name != state.devices[index].name
                    return reportsDuplicates && changed ? state.devices[index] : nil
                }
                state.devices[index].sightings += 1
                return reportsDuplicates ? state.devices[index] : nil
            }
            // Names and services may come in different advertisements (scan responses): match on
            // what is known of the device so far.
            var candidate = state.candidates[device] ?? Candidate()
            candidate.name = heard.name
            for uuid in advertisement.advertisedServices where !candidate.services.contains(uuid) {
                candidate.services.append(uuid)
            }
            let servicesMatch = services.map { wanted in wanted.contains { candidate.services.contains($0) } } ?? true
            let name = candidate.name?.name
            let nameMatches = pattern.map { pattern in name.map(pattern.matches) ?? false } ?? true
            guard servicesMatch, nameMatches else {
                state.candidates[device] = candidate
                return nil
            }
            state.candidates[device] = nil
            let found = DiscoveredDevice(
                id: device, advertisement: shown, name: candidate.name?.name, rssi: advertisement.rssi.map(Int.init),
                firstSeen: now, lastSeen: now, sightings: 1)
            state.index[device] = state.devices.count
            state.devices.append(found)
            return found
        }
        if let discovered { publish(.discovered(discovered)) }
    }

    private func publish(_ event: DiscoveryEvent) {
        continuation.yield(event)
        bus.publish(.discovery(id, event))
    }
}
