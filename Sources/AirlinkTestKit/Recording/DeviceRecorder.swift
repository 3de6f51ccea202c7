import AirlinkCore
import Synchronization

/// Records a device through any ``/AirlinkCore/Transport``: its advertising (and scan responses) for a window,
/// then its GATT database, the writes that drive it with what each one made the device do (its answer and the
/// notifications within the write window), every readable value read once (after the writes, so that a replay
/// answers as the driven device did), then the notifications of the subscribed characteristics for the
/// session's duration.
///
/// ```swift
/// let recorder = DeviceRecorder(transport: simulation.radio, environment: simulation.environment)
/// let (recording, capture) = try await recorder.record("C0:FF:EE:00:00:01", options: RecordingOptions())
/// try recording.yaml.write(toFile: "devices/thermostat.yaml", atomically: true, encoding: .utf8)
/// ```
///
/// Every step is a transport call with its own deadline (the connect timeout, the transport's 30 s for
/// GATT operations); the watch is a sleep on the environment's clock, so on the virtual radio it takes no
/// real time. Times are counted from the call, so that a replay starting with the simulation lines up.
public struct DeviceRecorder: Sendable {
    /// The transport recorded through.
    public let transport: any Transport
    /// Where the clock and the executor for the event collector come from.
    public let environment: AirlinkEnvironment

    /// Creates a recorder.
    public init(transport: any Transport, environment: AirlinkEnvironment) {
        self.transport = transport
        self.environment = environment
    }

    /// Records `device`.
    ///
    /// - Returns: the recording (redacted as the options say) and the raw capture it was made from.
    /// - Throws: whatever the transport throws on scanning, connecting (``/AirlinkCore/AirlinkError/Code/timeout``
    ///   past the options' connect timeout), discovering, writing or subscribing;
    ///   ``/AirlinkCore/AirlinkError/Code/characteristicNotFound`` for a write to a UUID the device does not have.
    ///   An ATT error on a read or a write is recorded, not thrown.
    public func record(_ device: DeviceID, options: RecordingOptions) async throws(AirlinkError)
        -> (DeviceRecording, RecordingCapture)
    {
        for write in options.writes where write.value.count > RecordingOptions.maximumWriteLength {
            throw AirlinkError(
                .invalidArgument,
                "a write to \(write.uuid) holds \(write.value.count) bytes; an attribute value holds at most "
                    + "\(RecordingOptions.maximumWriteLength) (Core Spec Vol 3, Part F, 3.2.9), which the replay "
                    + "checks too")
        }
        let log = CaptureLog(clock: environment.clock)
        let events = transport.events()
        let collector = environment.spawn { [log] in
            for await event in events {
                switch event {
                case .advertisement(let id, let advertisement) where id == device:
                    log.advertisement(advertisement)
                case .notification(let id, let handle, let value) where id == device:
                    log.notification(handle: handle, value: value)
                case .disconnected(let id, let reason) where id == device:
                    log.add(kind: "disconnected", detail: "\(reason)")
                default: break
                }
            }
        }
        defer { collector.cancel() }
        try await transport.startScan(ScanFilter(allowDuplicates: true))
        await sleep(options.advertisingWindow)
        await transport.stopScan()
        _ = try await transport.connect(device, timeout: options.connectTimeout)
        log.add(kind: "connected")
        var database = try await discover(device, log: log)
        // Subscribed before the writes when there are any, so that what each write makes the device notify is seen.
        var subscribed: [GATTCharacteristic] = []
        if !options.writes.isEmpty { subscribed = try await subscribe(device, database, options.subscribe, log: log) }
        var writes: [RecordedWrite] = []
        for write in options.writes {
            writes.append(try await perform(write, on: device, in: database, window: options.writeWindow, log: log))
        }
        try await readValues(device, of: &database, log: log)
        if options.writes.isEmpty { subscribed = try await subscribe(device, database, options.subscribe, log: log) }
        let reads = try await watch(device, database, options, log: log)
        for characteristic in subscribed {
            // try?: the disconnect just below ends the subscriptions anyway; the recording is complete by now
            try? await transport.setNotifications(device, characteristic: characteristic, mode: .disabled)
        }
        let end = log.now
        await transport.disconnect(device)
        let observed = log.observed
        let recording = DeviceRecording(
            device: device, transport: transport.name, advertisements: observed.advertisements, database: database,
            session: RecordedSession(
                duration: end, subscribed: subscribed.map(\.valueHandle), notifications: observed.notifications,
                reads: reads, writes: writes))
        return recording.redacted(options.redactions, capture: RecordingCapture(entries: observed.entries))
    }

    /// Waits out the session, reading every readable characteristic again at the read interval if one is set.
    private func watch(
        _ device: DeviceID, _ database: RecordedDatabase, _ options: RecordingOptions, log: CaptureLog
    ) async throws(AirlinkError) -> [RecordedRead] {
        guard let interval = options.readInterval, interval > .zero else {
            await sleep(options.duration)
            return []
        }
        let readable = database.services.filter { ![.genericAccess, .genericAttribute].contains($0.uuid) }
            .flatMap(\.characteristics).filter { $0.properties.contains(.read) }
        let clock = environment.clock
        let start = clock.now
        let end = start.advanced(by: options.duration)
        var reads: [RecordedRead] = []
        var tick = 1
        while start.advanced(by: interval * tick) <= end {
            // try?: sleep throws only when cancelled; the read that follows then throws the cancellation
            try? await clock.sleep(until: start.advanced(by: interval * tick))
            for characteristic in readable {
                // The session lasts what was asked: no read starts after its end (one at the end still does).
                guard clock.now <= end else { break }
                let asked = log.now
                let value = try await read(device, characteristic.valueHandle, log: log)
                reads.append(RecordedRead(time: asked, handle: characteristic.valueHandle, value: value))
            }
            // A round longer than the interval skips the ticks it overran, rather than catching up on them.
            tick = max(tick + 1, Int(start.duration(to: clock.now) / interval) + 1)
        }
        // try?: sleep throws only when cancelled: the session ends with what it read
        try? await clock.sleep(until: end)
        return reads
    }

    private func sleep(_ duration: Duration) async {
        try? await environment.clock.sleep(for: duration)  // try?: sleep throws only when cancelled; nothing to undo
    }

    /// Every service, characteristic and descriptor, in handle order.
    private func discover(_ device: DeviceID, log: CaptureLog) async throws(AirlinkError) -> RecordedDatabase {
        var services: [RecordedService] = []
        for service in try await transport.discoverServices(device, uuids: nil) {
            log.add(
                kind: "service", handle: service.handles.lowerBound, uuid: service.uuid,
                detail: "end \(service.handles.upperBound)\(service.isPrimary ? "" : " secondary")")
            var recorded = RecordedService(
                uuid: service.uuid, isPrimary: service.isPrimary, handles: service.handles,
                includes: service.includedServiceHandles)
            for characteristic in try await transport.discoverCharacteristics(device, of: service, uuids: nil) {
                log.add(
                    kind: "characteristic", handle: characteristic.valueHandle, uuid: characteristic.uuid,
                    detail: "\(characteristic.properties)")
                let descriptors = try await transport.discoverDescriptors(device, of: characteristic, in: service)
                for descriptor in descriptors {
                    log.add(kind: "descriptor", handle: descriptor.handle, uuid: descriptor.uuid)
                }
                recorded.characteristics.append(
                    RecordedCharacteristic(
                        uuid: characteristic.uuid, declarationHandle: characteristic.declarationHandle,
                        valueHandle: characteristic.valueHandle, properties: characteristic.properties,
                        descriptors: descriptors.map { RecordedDescriptor(uuid: $0.uuid, handle: $0.handle) }))
            }
            services.append(recorded)
        }
        return RecordedDatabase(services: services)
    }

    /// Reads every readable characteristic and every descriptor once; an ATT error is recorded as the value.
    private func readValues(_ device: DeviceID, of database: inout RecordedDatabase, log: CaptureLog)
        async throws(AirlinkError)
    {
        for s in database.services.indices {
            for c in database.services[s].characteristics.indices {
                let characteristic = database.services[s].characteristics[c]
                if characteristic.properties.contains(.read) {
                    database.services[s].characteristics[c].value = try await read(
                        device, characteristic.valueHandle, log: log)
                }
                for d in characteristic.descriptors.indices {
                    database.services[s].characteristics[c].descriptors[d].value = try await read(
                        device, characteristic.descriptors[d].handle, log: log)
                }
            }
        }
    }

    private func read(_ device: DeviceID, _ handle: ATTHandle, log: CaptureLog) async throws(AirlinkError)
        -> RecordedValue
    {
        do {
            let bytes = try await transport.read(device, handle: handle)
            log.add(kind: "read", handle: handle, bytes: bytes)
            return .bytes(bytes)
        } catch {
            guard case .att(let attError, _)? = error.cause else { throw error }
            log.add(kind: "read", handle: handle, attError: attError)
            return .error(attError)
        }
    }

    /// Makes one write and records the device's answer and the notifications that arrive within `window` of it.
    private func perform(
        _ write: RecordingOptions.Write, on device: DeviceID, in database: RecordedDatabase, window: Duration,
        log: CaptureLog
    ) async throws(AirlinkError) -> RecordedWrite {
        guard let characteristic = database.characteristic(write.uuid) else {
            throw AirlinkError(
                .characteristicNotFound, "the device has no characteristic \(write.uuid) to write to")
        }
        let handle = characteristic.valueHandle
        let asked = log.now
        var refusal: ATTError?
        do {
            try await transport.write(device, handle: handle, value: write.value, type: .withResponse)
            log.add(kind: "write", handle: handle, bytes: write.value)
        } catch {
            guard case .att(let attError, _)? = error.cause else { throw error }
            log.add(kind: "write", handle: handle, bytes: write.value, attError: attError)
            refusal = attError
        }
        let answered = log.now
        await sleep(window)
        let followed = log.claimNotifications(from: asked, through: answered + window).map {
            RecordedNotification(time: max(.zero, $0.time - answered), handle: $0.handle, value: $0.value)
        }
        return RecordedWrite(time: asked, handle: handle, value: write.value, error: refusal, followed: followed)
    }

    /// Subscribes as asked: notifications where the characteristic offers them, else indications.
    private func subscribe(
        _ device: DeviceID, _ database: RecordedDatabase, _ subscription: RecordingOptions.Subscription,
        log: CaptureLog
    ) async throws(AirlinkError) -> [GATTCharacteristic] {
        if case .uuids(let wanted) = subscription {
            let offered = database.services.filter { ![.genericAccess, .genericAttribute].contains($0.uuid) }
                .flatMap(\.characteristics).filter(\.properties.canSubscribe).map(\.uuid)
            for uuid in wanted where !offered.contains(uuid) {
                throw AirlinkError(
                    .characteristicNotFound,
                    "\(device) has no characteristic \(uuid) that notifies or indicates; it offers "
                        + (offered.isEmpty ? "none" : offered.map(\.description).joined(separator: ", ")))
            }
        }
        var subscribed: [GATTCharacteristic] = []
        for service in database.services where ![.genericAccess, .genericAttribute].contains(service.uuid) {
            for characteristic in service.characteristics where characteristic.properties.canSubscribe {
                if case .uuids(let wanted) = subscription, !wanted.contains(characteristic.uuid) { continue }
                let gatt = GATTCharacteristic(
                    uuid: characteristic.uuid, declarationHandle: characteristic.declarationHandle,
                    valueHandle: characteristic.valueHandle, properties: characteristic.properties)
                let mode: NotificationMode = characteristic.properties.contains(.notify) ? .notify : .indicate
                try await transport.setNotifications(device, characteristic: gatt, mode: mode)
                log.add(kind: "subscribed", handle: characteristic.valueHandle, detail: "\(mode)")
                subscribed.append(gatt)
            }
        }
        return subscribed
    }
}

/// The recorder's log of observations, shared with the task that collects transport events: typed
/// records for the recording, and the raw capture's entries.
final class CaptureLog: Sendable {
    /// What the log holds.
    struct Observed {
        /// Advertisements and scan responses (``/AirlinkCore/Advertisement/isScanResponse``), as reported.
        var advertisements: [(time: Duration, advertisement: Advertisement)] = []
        var notifications: [RecordedNotification] = []
        var entries: [RecordingCapture.Entry] = []
    }

    private let clock: AirlinkClock
    private let start: AirlinkInstant
    private let state = Mutex(Observed())

    init(clock: AirlinkClock) {
        self.clock = clock
        start = clock.now
    }

    /// The time since the recording started, to the microsecond (the precision a recording writes).
    var now: Duration { .microseconds(start.duration(to: clock.now).nanoseconds / 1_000) }

    var observed: Observed { state.withLock { $0 } }

    func add(
        kind: String, handle: ATTHandle? = nil, uuid: BluetoothUUID? = nil, bytes: [UInt8]? = nil,
        attError: ATTError? = nil, detail: String? = nil
    ) {
        let entry = RecordingCapture.Entry(
            micros: now.nanoseconds / 1_000, kind: kind, handle: handle?.rawValue, uuid: uuid?.description,
            bytes: bytes, attError: attError?.rawValue, detail: detail)
        state.withLock { $0.entries.append(entry) }
    }

    /// Takes the notifications that arrived from `start` through `end` out of the session's: they belong to a write.
    func claimNotifications(from start: Duration, through end: Duration) -> [RecordedNotification] {
        state.withLock { observed in
            let claimed = observed.notifications.filter { $0.time >= start && $0.time <= end }
            observed.notifications.removeAll { $0.time >= start && $0.time <= end }
            return claimed
        }
    }

    func notification(handle: ATTHandle, value: [UInt8]) {
        let time = now
        state.withLock { $0.notifications.append(RecordedNotification(time: time, handle: handle, value: value)) }
        add(kind: "notification", handle: handle, bytes: value)
    }

    func advertisement(_ advertisement: Advertisement) {
        let time = now
        state.withLock { $0.advertisements.append((time, advertisement)) }
        var detail = advertisement.isConnectable ? "connectable" : "non-connectable"
        if advertisement.isScanResponse { detail = "scan response" }
        if let rssi = advertisement.rssi { detail += " rssi \(rssi)" }
        do {
            add(kind: "advertisement", bytes: try advertisement.advertisingData(), detail: detail)
        } catch {
            add(kind: "advertisement", detail: detail + "; not encodable: \(error.message)")
        }
    }
}
