import AirlinkCore
import Yams

extension DeviceRecording {
    /// The longest name a recording holds, in bytes of UTF-8: a Device Name's 248 (Core Spec Vol 3, Part C, 12.1).
    public static let maximumNameLength = 248

    /// The largest recording file read, in bytes (16 MiB: hours of notifications).
    public static let maximumFileSize = 16 << 20

    /// Loads a recording file (the YAML ``yaml`` writes).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` naming `path:line:column` and the fault
    ///   (a truncated file, an unknown key, a handle used twice, a value over 512 bytes, a notification from a
    ///   handle that is no characteristic's), with the line shown; ``/AirlinkCore/AirlinkError/Code/invalidArgument``
    ///   when there is no readable file at the path.
    public static func load(path: String) throws(AirlinkError) -> DeviceRecording {
        try parse(try Scenario.text(at: path, kind: "recording", maximumSize: maximumFileSize), source: path)
    }

    /// Parses a recording from YAML text.
    ///
    /// - Parameters:
    ///   - yaml: the recording.
    ///   - source: the name used in error messages (a path).
    /// - Throws: as ``load(path:)``.
    public static func parse(_ yaml: String, source: String = "recording") throws(AirlinkError) -> DeviceRecording {
        try Scenario.decodeYAML(
            DeviceRecordingFile.self, yaml, source: source, whenEmpty: "a recording starts with `recording: 1`"
        ).recording
    }
}

/// The recording file's top level, decoded strictly and checked for consistency.
struct DeviceRecordingFile: Decodable {
    let recording: DeviceRecording

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case recording, name, id, transport, redacted, advertising, services, session
    }

    init(from decoder: any Decoder) throws {
        try RecordingDecoding.rejectUnknownKeys(
            decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a recording")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .recording)
        guard version == DeviceRecording.formatVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .recording, in: container,
                debugDescription: "this Airlink reads recordings of format \(DeviceRecording.formatVersion), "
                    + "found \(version)")
        }
        let name = try container.decode(String.self, forKey: .name)
        guard name.utf8.count <= DeviceRecording.maximumNameLength else {
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: container,
                debugDescription: "a device name holds at most \(DeviceRecording.maximumNameLength) bytes of UTF-8 "
                    + "(Device Name, Core Spec Vol 3, Part C, 12.1), found \(name.utf8.count); shorten it")
        }
        let services = try container.decode([RecordedService].self, forKey: .services)
        let session = try container.decode(RecordedSession.self, forKey: .session)
        recording = DeviceRecording(
            name: name,
            id: try container.decode(DeviceID.self, forKey: .id),
            transport: try container.decode(String.self, forKey: .transport),
            advertising: try container.decodeIfPresent(RecordedAdvertising.self, forKey: .advertising),
            database: RecordedDatabase(services: services), session: session,
            redacted: try container.decodeIfPresent([String].self, forKey: .redacted) ?? [])
        try Self.checkHandles(services, container.codingPath)
        try Self.checkNotifications(session, of: recording.database, container.codingPath)
        try Self.checkReads(session, of: recording.database, container.codingPath)
        try Self.checkWrites(session, of: recording.database, container.codingPath)
    }

    private static func key(_ name: String) -> any CodingKey { ScenarioPathKey(stringValue: name) }
    private static func index(_ value: Int) -> any CodingKey { ScenarioPathKey(intValue: value) }

    /// Every handle once; each characteristic and descriptor inside its service's range, in order.
    private static func checkHandles(_ services: [RecordedService], _ root: [any CodingKey]) throws {
        var seen: [ATTHandle: String] = [:]
        func claim(_ handle: ATTHandle, _ what: String, _ path: [any CodingKey]) throws {
            if let first = seen[handle] {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: root + path,
                        debugDescription: "handle \(handle) is used twice: by \(first) and by \(what); "
                            + "each attribute has its own handle"))
            }
            seen[handle] = what
        }
        func inside(_ handle: ATTHandle, _ range: ClosedRange<ATTHandle>, _ what: String, _ path: [any CodingKey])
            throws
        {
            guard !range.contains(handle) else { return }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: root + path,
                    debugDescription: "\(what)'s handle \(handle) lies outside its service's handles "
                        + "\(range.lowerBound)...\(range.upperBound)"))
        }
        for (s, service) in services.enumerated() {
            let servicePath = [key("services"), index(s)]
            try claim(service.handles.lowerBound, "service \(service.uuid)", servicePath + [key("handles")])
            for (c, characteristic) in service.characteristics.enumerated() {
                let path = servicePath + [key("characteristics"), index(c)]
                let name = "characteristic \(characteristic.uuid)"
                try inside(characteristic.declarationHandle, service.handles, name, path + [key("handle")])
                try inside(characteristic.valueHandle, service.handles, name, path + [key("valueHandle")])
                guard characteristic.valueHandle > characteristic.declarationHandle else {
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: root + path + [key("valueHandle")],
                            debugDescription: "\(name)'s value handle \(characteristic.valueHandle) must follow its "
                                + "declaration's, \(characteristic.declarationHandle)"))
                }
                try claim(characteristic.declarationHandle, "\(name)'s declaration", path + [key("handle")])
                try claim(characteristic.valueHandle, "\(name)'s value", path + [key("valueHandle")])
                for (d, descriptor) in characteristic.descriptors.enumerated() {
                    let descriptorPath = path + [key("descriptors"), index(d)]
                    let what = "descriptor \(descriptor.uuid) of \(name)"
                    try inside(descriptor.handle, service.handles, what, descriptorPath + [key("handle")])
                    try claim(descriptor.handle, what, descriptorPath + [key("handle")])
                }
            }
        }
    }

    /// Notifications in time order, within the session, from characteristics that notify or indicate.
    private static func checkNotifications(
        _ session: RecordedSession, of database: RecordedDatabase, _ root: [any CodingKey]
    ) throws {
        var previous = Duration.zero
        for (n, notification) in session.notifications.enumerated() {
            let path = root + [key("session"), key("notifications"), index(n)]
            func fail(_ key: String, _ text: String) -> DecodingError {
                .dataCorrupted(.init(codingPath: path + [Self.key(key)], debugDescription: text))
            }
            guard let (_, characteristic) = database.characteristic(valueHandle: notification.handle) else {
                throw fail("handle", "no characteristic has the value handle \(notification.handle)")
            }
            guard characteristic.properties.canSubscribe else {
                throw fail(
                    "handle",
                    "characteristic \(characteristic.uuid) at \(notification.handle) neither notifies nor indicates")
            }
            guard notification.time >= previous else {
                throw fail(
                    "at",
                    "notifications are in time order; \(notification.time.text) comes before "
                        + "\(previous.text)")
            }
            guard notification.time <= session.duration else {
                throw fail("at", "\(notification.time.text) is after the session's end, \(session.duration.text)")
            }
            previous = notification.time
        }
    }
}

extension DeviceRecordingFile {
    /// Reads in time order, within the session, of characteristics that allow reads.
    fileprivate static func checkReads(
        _ session: RecordedSession, of database: RecordedDatabase, _ root: [any CodingKey]
    ) throws {
        var previous = Duration.zero
        for (r, read) in session.reads.enumerated() {
            let path =
                root + [
                    ScenarioPathKey(stringValue: "session"), ScenarioPathKey(stringValue: "reads"),
                    ScenarioPathKey(intValue: r),
                ]
            func fail(_ key: String, _ text: String) -> DecodingError {
                .dataCorrupted(.init(codingPath: path + [ScenarioPathKey(stringValue: key)], debugDescription: text))
            }
            guard let (_, characteristic) = database.characteristic(valueHandle: read.handle),
                characteristic.properties.contains(.read)
            else { throw fail("handle", "no readable characteristic has the value handle \(read.handle)") }
            guard read.time >= previous, read.time <= session.duration else {
                throw fail("at", "reads are in time order within the session (0s to \(session.duration.text))")
            }
            previous = read.time
        }
    }
}

extension RecordedService: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case uuid, primary, handles, includes, characteristics }

    /// Decodes a service entry: `uuid`, `handles: [first, last]`, optional `primary` and `includes`.
    public init(from decoder: any Decoder) throws {
        try RecordingDecoding.rejectUnknownKeys(decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a service")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let range = try RecordingDecoding.handles(.handles, in: container)
        guard range.count == 2, range[0] <= range[1] else {
            throw DecodingError.dataCorruptedError(
                forKey: .handles, in: container,
                debugDescription: "expected the first and last handles, such as [0x0010, 0x0014]")
        }
        self.init(
            uuid: try RecordingDecoding.uuid(.uuid, in: container),
            isPrimary: try container.decodeIfPresent(Bool.self, forKey: .primary) ?? true,
            handles: range[0]...range[1],
            includes: container.contains(.includes) ? try RecordingDecoding.handles(.includes, in: container) : [],
            characteristics: try container.decode([RecordedCharacteristic].self, forKey: .characteristics))
    }
}

extension RecordedCharacteristic: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case uuid, handle, valueHandle, properties, value, readError, writeError, descriptors
    }

    /// Decodes a characteristic entry.
    public init(from decoder: any Decoder) throws {
        try RecordingDecoding.rejectUnknownKeys(
            decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a characteristic")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let properties = try container.decodeProperties(
            forKey: .properties, names: DeviceRecording.recordingPropertyNames)
        self.init(
            uuid: try RecordingDecoding.uuid(.uuid, in: container),
            declarationHandle: try RecordingDecoding.handle(.handle, in: container),
            valueHandle: try RecordingDecoding.handle(.valueHandle, in: container), properties: properties,
            value: try RecordingDecoding.value(.value, .readError, in: container),
            writeError: try container.decodeIfPresent(ScenarioATTError.self, forKey: .writeError)?.error,
            descriptors: try container.decodeIfPresent([RecordedDescriptor].self, forKey: .descriptors) ?? [])
    }
}

extension RecordedDescriptor: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case uuid, handle, value, readError }

    /// Decodes a descriptor entry.
    public init(from decoder: any Decoder) throws {
        try RecordingDecoding.rejectUnknownKeys(
            decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a descriptor")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            uuid: try RecordingDecoding.uuid(.uuid, in: container),
            handle: try RecordingDecoding.handle(.handle, in: container),
            value: try RecordingDecoding.value(.value, .readError, in: container))
    }
}

extension RecordedAdvertising: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case interval, connectable, txPower, data, scanResponse, reports, rssi
    }

    /// Decodes the advertising entry; `data` holds at most 31 bytes of AD structures unless extended.
    public init(from decoder: any Decoder) throws {
        try RecordingDecoding.rejectUnknownKeys(
            decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "the advertising")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let data = try RecordingDecoding.bytes(.data, in: container, limit: 1650)
        do {
            _ = try Advertisement(decoding: data)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .data, in: container, debugDescription: "not AD structures: \(error.message)")
        }
        let scanResponse =
            container.contains(.scanResponse)
            ? try RecordingDecoding.bytes(.scanResponse, in: container, limit: 1650) : nil
        if let scanResponse {
            do {
                _ = try Advertisement(decoding: scanResponse)
            } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .scanResponse, in: container, debugDescription: "not AD structures: \(error.message)")
            }
        }
        let interval = try container.decodeIfPresent(ScenarioDuration.self, forKey: .interval)
        if let interval, !ScenarioLimits.advertisingIntervals.contains(interval.duration) {
            throw DecodingError.dataCorruptedError(
                forKey: .interval, in: container,
                debugDescription: "expected an advertising interval from 20ms to 10.24s, found \(interval)")
        }
        self.init(
            data: data,
            scanResponse: scanResponse,
            interval: interval?.duration,
            isConnectable: try container.decodeIfPresent(Bool.self, forKey: .connectable) ?? true,
            txPower: try container.decodeIfPresent(Int8.self, forKey: .txPower),
            rssi: try container.decodeIfPresent(RSSIDistribution.self, forKey: .rssi),
            reports: try container.decodeIfPresent(Int.self, forKey: .reports) ?? 0)
    }
}

extension RSSIDistribution: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case count, min, p25, median, p75, max }

    /// Decodes `{count, min, p25, median, p75, max}`.
    public init(from decoder: any Decoder) throws {
        try RecordingDecoding.rejectUnknownKeys(
            decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "an RSSI distribution")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            count: try container.decode(Int.self, forKey: .count),
            minimum: try container.decode(Int.self, forKey: .min),
            lowerQuartile: try container.decode(Int.self, forKey: .p25),
            median: try container.decode(Int.self, forKey: .median),
            upperQuartile: try container.decode(Int.self, forKey: .p75),
            maximum: try container.decode(Int.self, forKey: .max))
    }
}

extension RecordedSession: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case duration, subscribed, notifications, reads, writes
    }

    /// Decodes the session: `duration`, `subscribed` value handles, `notifications`, `reads`, `writes`.
    public init(from decoder: any Decoder) throws {
        try RecordingDecoding.rejectUnknownKeys(decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a session")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            duration: try container.decode(ScenarioDuration.self, forKey: .duration).duration,
            subscribed: container.contains(.subscribed)
                ? try RecordingDecoding.handles(.subscribed, in: container) : [],
            notifications: try container.decodeIfPresent([RecordedNotification].self, forKey: .notifications) ?? [],
            reads: try container.decodeIfPresent([RecordedRead].self, forKey: .reads) ?? [],
            writes: try container.decodeIfPresent([RecordedWrite].self, forKey: .writes) ?? [])
    }
}

extension RecordedNotification: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case at, handle, value }

    /// Decodes `{at, handle, value}`.
    public init(from decoder: any Decoder) throws {
        try RecordingDecoding.rejectUnknownKeys(
            decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a notification")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            time: try container.decode(ScenarioDuration.self, forKey: .at).duration,
            handle: try RecordingDecoding.handle(.handle, in: container),
            value: try RecordingDecoding.bytes(.value, in: container))
    }
}

extension DeviceRecording {
    /// What a file given as `sim:PATH` holds.
    public enum FileContent: Sendable, Equatable {
        /// A recording (its top level has `recording:`).
        case recording
        /// A scenario (its top level has `duration:`, `world:` or `client:` and no `recording:`): it runs with
        /// `airlink simulate`.
        case scenario
    }

    /// Whether the file at `path` holds a recording or a scenario.
    ///
    /// - Throws: the error loading it as a recording gives (``load(path:)``): no file, a FIFO, a directory or a
    ///   device, too large, not UTF-8, not YAML (with the line and column), or a recording's fault; never
    ///   "a scenario" for a file that is neither.
    public static func content(ofFileAt path: String) throws(AirlinkError) -> FileContent {
        let text = try Scenario.text(at: path, kind: "recording", maximumSize: maximumFileSize)
        let scenarioKeys: Set<String> = ["duration", "world", "client", "timeline", "expect"]
        // Whether it holds `recording:` or a scenario's keys; anything else is parsed below to say what is wrong.
        // try?: the composition's error is dropped on purpose: parsing the text again below reports it, located.
        if let node = try? Yams.compose(yaml: text), let mapping = node.mapping {
            let keys = mapping.keys.compactMap(\.string)
            if keys.contains("recording") { return .recording }
            if keys.contains(where: scenarioKeys.contains) { return .scenario }
        }
        _ = try parse(text, source: path)
        return .recording
    }

    /// Whether the file at `path` is a recording (its top level has `recording:`) rather than a scenario;
    /// `false` when it cannot be read or is not YAML (loading it then says why).
    public static func isRecording(path: String) -> Bool {
        // try?: `false` is this function's answer for a file that cannot be read or is no YAML (see above)
        guard let text = try? Scenario.text(at: path, kind: "recording", maximumSize: maximumFileSize),
            let node = try? Yams.compose(yaml: text), let mapping = node.mapping  // try?: as above
        else { return false }
        return mapping.keys.contains { $0.string == "recording" }
    }
}

extension RecordedRead: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case at, handle, value, readError }

    /// Decodes `{at, handle, value}` or `{at, handle, readError}`.
    public init(from decoder: any Decoder) throws {
        try RecordingDecoding.rejectUnknownKeys(decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a read")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let value = try RecordingDecoding.value(.value, .readError, in: container) else {
            throw DecodingError.keyNotFound(
                CodingKeys.value,
                .init(codingPath: container.codingPath, debugDescription: "a read needs `value` or `readError`"))
        }
        self.init(
            time: try container.decode(ScenarioDuration.self, forKey: .at).duration,
            handle: try RecordingDecoding.handle(.handle, in: container), value: value)
    }
}

extension RecordedWrite: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case at, handle, value, writeError, followed }

    /// Decodes `{at, handle, value}` with an optional `writeError` and the `followed` notifications.
    public init(from decoder: any Decoder) throws {
        try RecordingDecoding.rejectUnknownKeys(decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a write")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            time: try container.decode(ScenarioDuration.self, forKey: .at).duration,
            handle: try RecordingDecoding.handle(.handle, in: container),
            value: try RecordingDecoding.bytes(.value, in: container),
            error: try container.decodeIfPresent(ScenarioATTError.self, forKey: .writeError)?.error,
            followed: try container.decodeIfPresent([FollowingNotification].self, forKey: .followed)?.map(
                \.notification)
                ?? [])
    }

    /// `{after, handle, value}`: a notification that followed a write, `after` counted from its answer.
    private struct FollowingNotification: Decodable {
        let notification: RecordedNotification

        private enum CodingKeys: String, CodingKey, CaseIterable { case after, handle, value }

        init(from decoder: any Decoder) throws {
            try RecordingDecoding.rejectUnknownKeys(
                decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a notification that followed a write")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            notification = RecordedNotification(
                time: try container.decode(ScenarioDuration.self, forKey: .after).duration,
                handle: try RecordingDecoding.handle(.handle, in: container),
                value: try RecordingDecoding.bytes(.value, in: container))
        }
    }
}
