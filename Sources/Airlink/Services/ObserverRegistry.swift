@_spi(AirlinkInternals) import AirlinkCore
import Logging
import Synchronization

/// The observers of one service's characteristics, and the service's own delivery lane.
///
/// Per-service isolation, as YmsCoreBluetooth and WLXBluetoothDevice gave each service its own
/// serial queue: closure observers of a service run one after another on that service's task, so a
/// slow observer delays only its own service. A stream observer (``DeviceService/values(of:)``)
/// is consumed by the app's own task.
///
/// Buffers are bounded (``DeviceManager/Configuration/notificationBufferCapacity`` values per stream
/// observer, and per lane). Delivery never waits for a slow observer: when a buffer is full the
/// newest value is dropped, the observer's gap is counted and handed over with the next value it
/// receives (``CharacteristicValue/missedBefore``), and the overflow is announced once per gap as
/// ``/AirlinkCore/ServicesEvent/notificationsOverflowed(service:characteristic:)``. Nothing is lost silently.
final class ObserverRegistry: Sendable {
    typealias Body = @Sendable (CharacteristicValue) async -> Void

    private enum Sink {
        /// A stream observer's channel, held weakly: dropping the sequence ends the observation.
        case stream(WeakChannel)
        case lane
    }

    private struct WeakChannel {
        weak var channel: ValueChannel<CharacteristicValue>?
    }

    private struct Observer {
        let id: Int
        let sink: Sink
        var missed = 0
    }

    private struct LaneItem: Sendable {
        let observer: Int
        let value: CharacteristicValue
    }

    private struct State {
        var observers: [BluetoothUUID: [Observer]] = [:]
        var bodies: [Int: Body] = [:]
        var lane: ValueChannel<LaneItem>?
        var laneTask: Task<Void, Never>?
    }

    let device: DeviceID
    let service: BluetoothUUID
    private let capacity: Int
    private let environment: AirlinkEnvironment
    private let bus: EventBus
    private let ids: ObserverIDs
    private let state = Mutex(State())

    init(
        device: DeviceID, service: BluetoothUUID, capacity: Int, environment: AirlinkEnvironment, bus: EventBus,
        ids: ObserverIDs
    ) {
        self.device = device
        self.service = service
        self.capacity = max(capacity, 1)
        self.environment = environment
        self.bus = bus
        self.ids = ids
    }

    deinit {
        state.withLock { state in
            state.lane?.finish()
            state.laneTask?.cancel()
        }
    }

    /// A sequence of the characteristic's values, until it is dropped or its consumer cancelled.
    func stream(for characteristic: BluetoothUUID) -> CharacteristicValues {
        let channel = ValueChannel<CharacteristicValue>(capacity: capacity)
        let id = ids.next()
        state.withLock { state in
            state.observers[characteristic, default: []].append(
                Observer(id: id, sink: .stream(WeakChannel(channel: channel))))
        }
        return CharacteristicValues(channel: channel)
    }

    /// Adds a closure observer, run on the service's lane.
    func add(for characteristic: BluetoothUUID, _ body: @escaping Body) -> ObserverToken {
        let id = ids.next()
        state.withLock { state in
            startLaneIfNeeded(&state)
            state.bodies[id] = body
            state.observers[characteristic, default: []].append(Observer(id: id, sink: .lane))
        }
        return ObserverToken(id: id, service: service, characteristic: characteristic)
    }

    /// Removes an observer; values already queued for it are not delivered.
    func remove(_ id: Int, from characteristic: BluetoothUUID) {
        state.withLock { state in
            state.observers[characteristic]?.removeAll { $0.id == id }
            state.bodies[id] = nil
        }
    }

    /// The number of observers of a characteristic.
    func count(for characteristic: BluetoothUUID) -> Int {
        state.withLock { $0.observers[characteristic]?.count ?? 0 }
    }

    /// Hands a value to every observer of the characteristic, without waiting for any of them.
    func deliver(_ bytes: [UInt8], characteristic: BluetoothUUID) {
        let overflowed = state.withLock { state -> Bool in
            guard let observers = state.observers[characteristic], !observers.isEmpty else { return false }
            var overflowed = false
            var changes: [(index: Int, missed: Int)] = []
            var finished: [Int] = []
            for (index, observer) in observers.enumerated() {
                let value = CharacteristicValue(
                    device: device, service: service, characteristic: characteristic, bytes: bytes,
                    missedBefore: observer.missed)
                var accepted = true
                switch observer.sink {
                case .stream(let weak):
                    switch weak.channel?.offer(value) ?? .finished {
                    case .enqueued: break
                    case .dropped: accepted = false
                    case .finished, .terminated: finished.append(observer.id)
                    }
                case .lane:
                    if case .dropped = state.lane?.offer(LaneItem(observer: observer.id, value: value)) {
                        accepted = false
                    }
                }
                if !accepted {
                    if observer.missed == 0 { overflowed = true }
                    changes.append((index, observer.missed + 1))
                } else if observer.missed != 0 {
                    changes.append((index, 0))
                }
            }
            // Write back in place, only when something changed (the common path allocates nothing).
            for change in changes { state.observers[characteristic]![change.index].missed = change.missed }
            if !finished.isEmpty { state.observers[characteristic]!.removeAll { finished.contains($0.id) } }
            return overflowed
        }
        if overflowed {
            var logger = environment.logger
            logger[metadataKey: "device"] = "\(device)"
            logger[metadataKey: "service"] = "\(service)"
            logger[metadataKey: "characteristic"] = "\(characteristic)"
            logger.warning("an observer fell behind: its buffer of \(capacity) values is full, values are dropped")
            bus.publish(.services(device, .notificationsOverflowed(service: service, characteristic: characteristic)))
        }
    }

    /// Detaches every stream observer (the values' source is gone for good) and returns their
    /// channels, for the caller to end in observer-id order across services; closure observers stay.
    func detachStreams() -> [(id: Int, channel: ValueChannel<CharacteristicValue>)] {
        state.withLock { state in
            var channels: [(id: Int, channel: ValueChannel<CharacteristicValue>)] = []
            for characteristic in Array(state.observers.keys) {
                for observer in state.observers[characteristic] ?? [] {
                    if case .stream(let weak) = observer.sink, let channel = weak.channel {
                        channels.append((observer.id, channel))
                    }
                }
                state.observers[characteristic]?.removeAll {
                    if case .stream = $0.sink { return true }
                    return false
                }
            }
            return channels
        }
    }

    /// Detaches every observer and ends the lane; returns the stream observers' channels, for the
    /// caller to end, ordered by observer id (the order they were opened, device-wide), never by the
    /// characteristics' hash order, which changes from process to process.
    func close() -> [(id: Int, channel: ValueChannel<CharacteristicValue>?)] {
        let observers = state.withLock { state -> [Observer] in
            defer {
                state.observers.removeAll()
                state.bodies.removeAll()
            }
            state.lane?.finish()
            return state.observers.values.flatMap { $0 }
        }
        return observers.compactMap { observer in
            guard case .stream(let weak) = observer.sink else { return nil }
            return (observer.id, weak.channel)
        }.sorted { $0.id < $1.id }
    }

    private func body(_ id: Int) -> Body? { state.withLock { $0.bodies[id] } }

    private func startLaneIfNeeded(_ state: inout State) {
        guard state.lane == nil else { return }
        let lane = ValueChannel<LaneItem>(capacity: capacity)
        state.lane = lane
        state.laneTask = environment.spawn { [weak self] in
            var batch: [LaneItem] = []
            while true {
                await lane.take(into: &batch)
                if batch.isEmpty { return }
                for item in batch {
                    guard let body = self?.body(item.observer) else { continue }
                    await body(item.value)
                }
            }
        }
    }
}

/// Numbers observers, unique per device.
final class ObserverIDs: Sendable {
    private let counter = Mutex(0)

    /// The next number, from 1.
    func next() -> Int {
        counter.withLock { counter in
            counter += 1
            return counter
        }
    }
}
