import AirlinkCore
import AirlinkSimulation
import Synchronization

/// Serves a simulation's world to one host at a time over H4: the ``HCIController`` decides, the virtual
/// radio's central (``/AirlinkSimulation/Simulation/radio``) carries out, the simulation runs paced to the
/// wall clock.
///
/// When the host goes away its links end and the controller resets; the next host finds the world as the
/// timeline left it.
public final class HCIControllerServer: Sendable {
    /// Something the server does to a peripheral a while after a host's link to it came up (every link):
    /// the timeline of a world served to a host whose timing the world cannot know.
    public struct LinkAction: Sendable {
        /// The peripheral.
        public var device: DeviceID
        /// How long after the link came up.
        public var after: Duration
        /// What happens, for the trace.
        public var summary: String
        /// Applies it.
        public var apply: @Sendable (SimulatedPeripheral) -> Void
        /// The characteristic it concerns, which the peripheral must have (a burst's), if any.
        public var characteristic: BluetoothUUID?

        /// Creates an action.
        public init(
            device: DeviceID, after: Duration, summary: String, apply: @escaping @Sendable (SimulatedPeripheral) -> Void
        ) {
            self.device = device
            self.after = after
            self.summary = summary
            self.apply = apply
        }

        /// The peripheral drops its link with an HCI reason, which the host hears in Disconnection Complete.
        public static func dropLink(_ device: DeviceID, after: Duration, reason: DisconnectionReason) -> LinkAction {
            LinkAction(device: device, after: after, summary: "drops its link: \(reason)") {
                $0.dropLink(reason: reason)
            }
        }

        /// The peripheral sends `count` notifications of a characteristic at once (for throughput figures).
        public static func burst(_ device: DeviceID, after: Duration, count: Int, of characteristic: BluetoothUUID)
            -> LinkAction
        {
            var action = LinkAction(
                device: device, after: after, summary: "sends \(count) notifications of \(characteristic)"
            ) {
                // try?: the characteristic was checked when the server started (init); a refusal has no one to tell
                try? $0.burstNotifications(of: characteristic, count: count)
            }
            action.characteristic = characteristic
            return action
        }
    }

    private let simulation: Simulation
    private let socket: HostSocket
    private let snoop: BTSnoopWriter?
    private let actions: [LinkAction]
    private let state: Mutex<State>
    private let inbox = RadioInbox()
    private let links = LinkGenerations()
    private let output: @Sendable (String) -> Void
    private let records: (@Sendable (TraceRecord) -> Void)?
    private let hostWriteDeadline: Duration
    private let stopRequested = Atomic<Bool>(false)
    private let requests = Mutex<Requests>(Requests())

    private struct Requests: @unchecked Sendable {
        // @unchecked: the closures and continuations are Sendable; the tuple array is not inferred as such.
        var waiting: [(@Sendable (Simulation) throws -> Void, CheckedContinuation<Void, any Error>)] = []
        var closed = false
    }

    private struct State: @unchecked Sendable {
        var controller: HCIController
        var decoder = H4StreamDecoder()
        var lossesArmed: Set<DeviceID> = []
    }

    /// Creates a server; it listens at once (so a host may connect before ``run()``).
    ///
    /// - Parameters:
    ///   - simulation: the world, its peripherals added.
    ///   - endpoint: where to listen.
    ///   - btsnoop: where to write the capture, if anywhere.
    ///   - actions: what peripherals do a while after a host's link to them came up.
    ///   - address: the controller's public address (Read BD_ADDR); a host such as bluetoothd keeps what it
    ///     learns per adapter address, so a new address is a new adapter to it.
    ///   - hostWriteDeadline: how long a host may read nothing while the controller has bytes for it before its
    ///     connection is closed (5 s): a host that only writes would otherwise stall the controller for good.
    ///   - output: where trace lines go as they are recorded.
    ///   - records: where the same lines' typed records go (for a caller that reads facts, not text).
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when the endpoint or the capture cannot be
    ///   opened.
    public init(
        simulation: Simulation, endpoint: HostEndpoint, btsnoop: String? = nil, actions: [LinkAction] = [],
        address: BDAddress = HCIControllerServer.defaultAddress, hostWriteDeadline: Duration = .seconds(5),
        output: @escaping @Sendable (String) -> Void, records: (@Sendable (TraceRecord) -> Void)? = nil
    ) throws(AirlinkError) {
        self.simulation = simulation
        self.hostWriteDeadline = hostWriteDeadline
        try Self.check(actions, in: simulation)
        self.socket = try HostSocket(endpoint)
        self.snoop = try btsnoop.map { path throws(AirlinkError) in try BTSnoopWriter(path: path) }
        self.actions = actions
        self.output = output
        self.records = records
        state = Mutex(State(controller: HCIController(address: address)))
    }

    /// The controller's address unless another is given: `A1:4C:00:00:00:01`.
    public static let defaultAddress = BDAddress(value: 0xA1_4C_00_00_00_01)

    /// Runs `work` on the served world between two runs of the simulation, on its driver thread, as the world's
    /// own timeline would: how code outside the world (a test, a control channel) acts on its peripherals.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/cancelled`` when the server stops (or has stopped) before
    ///   `work` ran; whatever `work` throws.
    public func perform(_ work: @escaping @Sendable (Simulation) throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let accepted = requests.withLock { requests in
                guard !requests.closed else { return false }
                requests.waiting.append((work, continuation))
                return true
            }
            if !accepted {
                continuation.resume(throwing: AirlinkError(.cancelled, "the controller has stopped serving its world"))
            }
        }
    }

    /// Runs what ``perform(_:)`` queued; with `closing`, fails it instead and takes no more.
    private func runRequests(closing: Bool = false) {
        let waiting = requests.withLock { requests in
            defer { requests.waiting = [] }
            requests.closed = requests.closed || closing
            return requests.waiting
        }
        for (work, continuation) in waiting {
            guard !closing else {
                continuation.resume(throwing: AirlinkError(.cancelled, "the controller stopped serving its world"))
                continue
            }
            do {
                try work(simulation)
                continuation.resume()
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    /// Refuses an action naming a device the world lacks, or a characteristic its device lacks: one that would
    /// never happen is said at the start, not left silent.
    private static func check(_ actions: [LinkAction], in simulation: Simulation) throws(AirlinkError) {
        for action in actions {
            guard let peripheral = simulation.peripheral(action.device) else {
                throw AirlinkError(
                    .deviceNotFound,
                    "the world has no device \(action.device) to act on (it \(action.summary)); name one of "
                        + simulation.peripheralIDs.map(\.description).joined(separator: ", "))
            }
            if let characteristic = action.characteristic {
                do {
                    _ = try peripheral.valueHandle(of: characteristic)
                } catch {
                    throw AirlinkError(
                        .characteristicNotFound,
                        "\(peripheral.name) (\(action.device)) has no characteristic \(characteristic) to act on "
                            + "(it \(action.summary)): \(error.message)", cause: .underlying(error))
                }
            }
        }
    }

    /// Where it listens: a pseudo-terminal's with the path a host opens.
    public var endpoint: HostEndpoint { socket.endpoint }

    /// Asks ``run()`` to return after its current step.
    public func stop() { stopRequested.store(true, ordering: .relaxed) }

    /// Serves hosts until ``stop()``.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/escapedWork`` in strict mode.
    public func run() async throws {
        let radio = simulation.radio
        let inbox = self.inbox
        let links = self.links
        radio.attachHost(
            HostBearer(
                advertisement: { report in
                    inbox.append(
                        .advertisement(
                            report.device, data: report.data, scanResponse: report.scanResponse,
                            isConnectable: report.isConnectable, rssi: report.rssi))
                },
                att: { device, bytes in inbox.append(.att(device, bytes)) }))
        let events = radio.events()
        simulation.spawn {
            for await event in events {
                if case .disconnected(let device, let reason) = event {
                    links.wentDown(device)
                    inbox.append(.disconnected(device, reason: reason.rawValue))
                }
            }
        }
        simulation.trace.record("hci", "controller listening on \(socket.endpoint)")
        defer { runRequests(closing: true) }
        try await simulation.runPaced { [self] wait in step(waiting: wait) }
    }

    /// One step between runs of the simulation: takes a host, reads what it sent, answers, prints the trace.
    private func step(waiting wait: Duration) -> Bool {
        if !socket.hasHost {
            if socket.acceptHost(waiting: wait) { simulation.trace.record("hci", "host connected") }
        } else if let bytes = socket.read(waiting: wait) {
            state.withLock { $0.decoder.append(bytes) }
            while true {
                let packet: HCIPacket?
                do {
                    packet = try state.withLock { state throws(AirlinkError) in try state.decoder.next() }
                } catch {
                    simulation.trace.record("hci", "\(error.message); closing the host's connection")
                    socket.dropHost()
                    hostLeft()
                    break
                }
                guard let packet else { break }
                if let stopped = snoop?.record(packet, fromHost: true, at: simulation.now.offset) {
                    simulation.trace.record("hci", stopped)
                }
                feed(.host(packet))
            }
        } else {
            hostLeft()
        }
        for input in inbox.drain() { feed(input) }
        runRequests()
        printTrace()
        return !stopRequested.load(ordering: .relaxed)
    }

    private func hostLeft() {
        simulation.trace.record("hci", "host disconnected; the controller resets")
        state.withLock { $0.decoder = H4StreamDecoder() }
        feed(.host(.command(HCICommand(.reset))), answer: false)
    }

    private func feed(_ input: HCIController.Input, answer: Bool = true) {
        let actions = state.withLock { $0.controller.handle(input) }
        for action in actions { perform(action, answer: answer) }
    }

    private func perform(_ action: HCIController.Action, answer: Bool) {
        let radio = simulation.radio
        let inbox = self.inbox
        switch action {
        case .send(let packet):
            guard answer else { return }
            if let stopped = snoop?.record(packet, fromHost: false, at: simulation.now.offset) {
                simulation.trace.record("hci", stopped)
            }
            switch socket.write(packet.h4, deadline: hostWriteDeadline) {
            case .written: break
            case .hostStalled:
                simulation.trace.record(
                    "hci",
                    "the host read nothing for \(hostWriteDeadline.text) while the controller had events for it; "
                        + "its connection is closed")
            case .failed(let reason):
                simulation.trace.record(
                    "hci", "a packet to the host was lost: writing to \(socket.endpoint) failed: \(reason)")
            }
        case .startScan(let active, let filterDuplicates):
            let filter = ScanFilter(services: nil, allowDuplicates: !filterDuplicates, isActive: active)
            let trace = simulation.trace
            simulation.spawn {
                do throws(AirlinkError) {
                    try await radio.startScan(filter)
                } catch {
                    // The host had its Command Complete already: the trace keeps why no reports follow.
                    trace.record("hci", "scan not started: \(error.message)")
                }
            }
        case .stopScan:
            simulation.spawn { await radio.stopScan() }
        case .connect(let device, let request):
            var parameters = radio.linkParameters
            parameters.connectionInterval = .microseconds(Int64(request.interval) * 1_250)
            parameters.peripheralLatency = Int(request.latency)
            parameters.supervisionTimeout = .milliseconds(Int64(request.supervisionTimeout) * 10)
            radio.linkParameters = parameters  // refused (and traced) if out of range: the radio's own stay
            let actions = self.actions.filter { $0.device == device }.sorted { $0.after < $1.after }
            let simulation = self.simulation
            let links = self.links
            guard simulation.peripheral(device) != nil else {
                // A controller stays in the initiating state until the peer is heard or the host cancels
                // (Vol 6, Part B, 4.5): a device the world lacks is never heard.
                simulation.trace.record("hci", "initiating: \(device) is not in the world; waiting for a cancel")
                return
            }
            simulation.spawn {
                do {
                    // The initiating state has no timeout of its own: the radio's is renewed until the host cancels.
                    while true {
                        do {
                            _ = try await radio.connect(device, timeout: .seconds(3_600))
                            break
                        } catch {
                            guard (error as? AirlinkError)?.code == .timeout else { throw error }
                        }
                    }
                    let link = links.cameUp(device)
                    inbox.append(.connected(device))
                    let start = simulation.clock.now
                    for action in actions {
                        // try?: sleep throws only when cancelled (the simulation ending); the link check follows
                        try? await simulation.clock.sleep(until: start.advanced(by: action.after))
                        // The timeline belongs to the link that started it: it ends with that link.
                        guard links.isUp(device, link) else { break }
                        simulation.trace.record("fault", "\(device) \(action.summary)")
                        if let peripheral = simulation.peripheral(device) { action.apply(peripheral) }
                    }
                } catch {
                    let status: UInt8 = (error as? AirlinkError)?.code == .cancelled ? 0x02 : 0x3E
                    inbox.append(.connectionFailed(device, status: status))
                }
            }
        case .cancelConnect(let device):
            guard simulation.peripheral(device) != nil else {
                inbox.append(.connectionFailed(device, status: 0x02))
                return
            }
            simulation.spawn { await radio.disconnect(device) }
        case .disconnect(let device):
            simulation.spawn { await radio.disconnect(device) }
        case .sendATT(let device, let bytes):
            radio.sendHostATT(bytes, to: device)
        case .readRSSI(let device):
            simulation.spawn {
                // try?: a failed read answers the host Unknown Connection Identifier (measured), all HCI can say
                let level = try? await radio.readRSSI(device)
                inbox.append(.linkRSSI(device, level.map { Int8(clamping: $0) }))
            }
        case .encrypted(let device, let level, let keySize):
            radio.hostEncrypted(device, level: level, keySize: keySize)
        case .note(let text):
            simulation.trace.record("hci", text)
        }
    }

    /// Prints what the trace recorded since the last step, and lets the trace forget it: a server that runs for
    /// days with a host flooding it keeps no trace in memory.
    private func printTrace() {
        // Typed records are built only for a caller that takes them: a flood prints lines, nothing more.
        guard let records else {
            for line in simulation.trace.takeLines() { output(line) }
            return
        }
        for (record, line) in simulation.trace.take() {
            output(line)
            records(record)
        }
    }
}

/// What the radio reported since the last step, in order: filled on the driver thread while the simulation
/// runs, drained between runs.
private final class RadioInbox: Sendable {
    private let inputs = Mutex<[HCIController.Input]>([])

    func append(_ input: HCIController.Input) { inputs.withLock { $0.append(input) } }

    func drain() -> [HCIController.Input] {
        inputs.withLock { inputs in
            defer { inputs = [] }
            return inputs
        }
    }
}

/// Which link to each peripheral is up: a number per link, so that what was started for one link (its
/// ``HCIControllerServer/LinkAction``s) stops when that link goes down, and never acts on the next one.
private final class LinkGenerations: Sendable {
    private let state = Mutex<(next: Int, up: [DeviceID: Int])>((0, [:]))

    /// A link to `device` came up: its number.
    func cameUp(_ device: DeviceID) -> Int {
        state.withLock { state in
            state.next += 1
            state.up[device] = state.next
            return state.next
        }
    }

    func wentDown(_ device: DeviceID) { state.withLock { _ = $0.up.removeValue(forKey: device) } }

    /// Whether link `number` to `device` is still the one up.
    func isUp(_ device: DeviceID, _ number: Int) -> Bool { state.withLock { $0.up[device] == number } }
}
