import AirlinkCore
import AirlinkSimulation

extension DeviceRecording {
    /// The peripheral the virtual radio serves in the device's place: the recorded advertising, the same
    /// database with the same handles, reads answered with the recorded values (or the recorded ATT errors),
    /// writes accepted as the properties allow (or refused with a `writeError`), and the session's
    /// notifications at their recorded times.
    ///
    /// ```swift
    /// let recording = try DeviceRecording.load(path: "devices/thermostat.yaml")
    /// let thermostat = try simulation.add(recording.peripheralSpec())
    /// thermostat.dropLink(reason: .supervisionTimeout)   // every fault verb applies
    /// ```
    ///
    /// It stands where the median RSSI puts it under the radio's path-loss model (measured power −59 dBm).
    ///
    /// - Parameter replay: once (the default) or looped.
    /// Each service and characteristic takes its recorded handle, gaps included. A recording without 0x1800 and
    /// 0x1801 (BlueZ hides them) is served with both, 0x1801 serving none of its characteristics.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` when the virtual radio cannot give the
    ///   recorded handles (its 0x1800 has Device Name and Appearance only at 0x0001–0x0005, 0x1801 follows, each
    ///   CCCD comes right after its value and other descriptors after it, and a service ends at its last
    ///   attribute: the message names the first handle that differs), when
    ///   the advertising data does not decode, or when a loop would schedule more than
    ///   ``RecordingReplay/maximumNotifications``.
    public func peripheralSpec(replay: RecordingReplay = .once) throws(AirlinkError) -> PeripheralSpec {
        var spec = PeripheralSpec(name: name, id: id, appearance: appearance, position: position) {}
        spec.genericAttribute = genericAttribute
        spec.services = try database.services.filter { ![.genericAccess, .genericAttribute].contains($0.uuid) }
            .map { service throws(AirlinkError) in try replayService(service) }
        spec.advertising = try replayAdvertising()
        spec.timeline = try timeline(replay)
        try checkLayout(of: spec)
        return spec
    }

    private var appearance: Appearance {
        guard let bytes = database.characteristic(.appearance)?.value?.bytes, bytes.count == 2 else {
            return Appearance(0)
        }
        return Appearance(UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
    }

    /// Where the median RSSI puts the device, 0.1 m to 60 m (1 m without RSSI).
    private var position: Position {
        guard let median = advertising?.rssi?.median else { return .metres(1) }
        let metres = PathLossModel().distance(measuredPower: -59, meanRSSI: Double(median))
        return .metres(min(60, max(0.1, (metres * 10).rounded() / 10)))
    }

    private var genericAttribute: GenericAttributeCharacteristics {
        let uuids = database.services.first { $0.uuid == .genericAttribute }?.characteristics.map(\.uuid) ?? []
        var served: GenericAttributeCharacteristics = []
        if uuids.contains(.serviceChanged) { served.insert(.serviceChanged) }
        if uuids.contains(.clientSupportedFeatures) { served.insert(.clientSupportedFeatures) }
        if uuids.contains(.databaseHash) { served.insert(.databaseHash) }
        return served
    }

    private func replayService(_ service: RecordedService) throws(AirlinkError) -> Service {
        var replayed = Service(service.uuid, primary: service.isPrimary)
        replayed.handle = service.handles.lowerBound
        for include in service.includes {
            guard let target = database.services.first(where: { $0.handles.lowerBound == include }) else {
                throw AirlinkError(
                    .invalidSpecification,
                    "recording \(name): service \(service.uuid) includes the service at \(include), which the "
                        + "recording does not have")
            }
            replayed.includes.append(target.uuid)
        }
        replayed.characteristics = service.characteristics.map(replayCharacteristic)
        return replayed
    }

    private func replayCharacteristic(_ recorded: RecordedCharacteristic) -> CharacteristicSpec {
        var spec = Characteristic(recorded.uuid, properties: recorded.properties, value: recorded.value?.bytes ?? [])
            .spec
        spec.valueTypeName = "recorded bytes"
        spec.handle = recorded.declarationHandle
        // A descriptor whose read failed is served unreadable: Read Not Permitted stands for its error.
        spec.descriptors = recorded.descriptors.filter { $0.uuid != .clientCharacteristicConfiguration }.map {
            GATTServerDefinition.Descriptor(
                $0.uuid, permissions: $0.value?.error == nil ? .readable : [], value: $0.value?.bytes ?? [])
        }
        if let error = recorded.value?.error {
            spec.onRead = { _ throws(ATTRefusal) in throw ATTRefusal(error) }
        }
        spec.onWrite = writeBehaviour(of: recorded)
        return spec
    }

    private func replayAdvertising() throws(AirlinkError) -> Advertising? {
        guard let recorded = advertising else { return nil }
        var replayed = Advertising(every: recorded.interval ?? .milliseconds(100), connectable: recorded.isConnectable)
        do {
            replayed.advertisement = try Advertisement(decoding: recorded.data, isConnectable: recorded.isConnectable)
            if let data = recorded.scanResponse {
                var response = try Advertisement(decoding: data, isConnectable: recorded.isConnectable)
                response.isScanResponse = true
                replayed.scanResponse = response
            }
        } catch {
            throw AirlinkError(
                .invalidSpecification, "recording \(name): the advertising data does not decode: \(error.message)",
                cause: .underlying(error))
        }
        return replayed
    }

    /// The session's notifications as timeline entries that store and notify each value.
    private func timeline(_ replay: RecordingReplay) throws(AirlinkError) -> [At] {
        let notifications = session.notifications
        var periods = 1
        if case .loop(let until) = replay, !notifications.isEmpty {
            guard session.duration > .zero else {
                throw AirlinkError(
                    .invalidSpecification, "recording \(name): a session of no duration cannot loop")
            }
            periods = max(1, Int((until / session.duration).rounded(.up)))
            guard periods * notifications.count <= RecordingReplay.maximumNotifications else {
                throw AirlinkError(
                    .invalidSpecification,
                    "recording \(name): looping \(notifications.count) notifications until \(until.text) makes "
                        + "\(periods * notifications.count), over the \(RecordingReplay.maximumNotifications) a replay "
                        + "schedules")
            }
        }
        var entries: [At] = []
        // Reads made again change the value a read returns; a characteristic that notifies changes by its
        // notifications instead (storing a read would notify it once more).
        let reads = session.reads.compactMap { read -> (Duration, [UInt8], BluetoothUUID, BluetoothUUID)? in
            guard let bytes = read.value.bytes,
                let (service, characteristic) = database.characteristic(valueHandle: read.handle),
                !characteristic.properties.canSubscribe
            else { return nil }
            return (read.time, bytes, characteristic.uuid, service.uuid)
        }
        for (time, bytes, characteristic, service) in reads {
            entries.append(At(time, .setBytes(bytes, characteristic: characteristic, service: service)))
        }
        for period in 0..<periods {
            let offset = session.duration * period
            for notification in notifications {
                let time = offset + notification.time
                if case .loop(let until) = replay, time > until { break }
                guard let (service, characteristic) = database.characteristic(valueHandle: notification.handle) else {
                    throw AirlinkError(
                        .invalidSpecification,
                        "recording \(name): a notification comes from \(notification.handle), no characteristic's")
                }
                entries.append(
                    At(time, .setBytes(notification.value, characteristic: characteristic.uuid, service: service.uuid)))
            }
        }
        return entries
    }
}

extension DeviceRecording {
    /// What a write to `characteristic` does on the replay: a write of recorded bytes is answered as recorded (its
    /// error, or the notifications that followed it after their delays); other bytes are refused with the
    /// characteristic's `writeError`, or accepted as its properties allow. `nil` when nothing is recorded.
    func writeBehaviour(of characteristic: RecordedCharacteristic)
        -> (@Sendable (any PeripheralContext, [UInt8]) throws(ATTRefusal) -> Void)?
    {
        typealias Follower = (delay: Duration, value: [UInt8], characteristic: BluetoothUUID, service: BluetoothUUID)
        let answers: [(value: [UInt8], error: ATTError?, followed: [Follower])] = session.writes.filter {
            $0.handle == characteristic.valueHandle
        }.map { write in
            let followed = write.followed.compactMap { notification -> Follower? in
                guard let (service, source) = database.characteristic(valueHandle: notification.handle) else {
                    return nil  // checked when the file was read
                }
                return (notification.time, notification.value, source.uuid, service.uuid)
            }
            return (write.value, write.error, followed)
        }
        let fallback = characteristic.writeError
        guard !answers.isEmpty || fallback != nil else { return nil }
        return { context, bytes throws(ATTRefusal) in
            guard let answer = answers.first(where: { $0.value == bytes }) else {
                if let fallback { throw ATTRefusal(fallback) }
                return
            }
            if let error = answer.error { throw ATTRefusal(error) }
            for follower in answer.followed {
                context.schedule(after: follower.delay) { context in
                    do throws(AirlinkError) {
                        try context.setBytes(follower.value, of: follower.characteristic, in: follower.service)
                    } catch {
                        context.log("replayed write: \(error.message)")
                    }
                }
            }
        }
    }
}
