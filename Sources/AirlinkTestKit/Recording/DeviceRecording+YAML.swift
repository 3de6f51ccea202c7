import AirlinkCore

extension DeviceRecording {
    /// The recording as YAML, in the scenario world format: a peripheral entry with its advertising, its
    /// services, the values read (bytes in hex, with the text in a comment when it is printable) and the
    /// session's notifications. ``parse(_:source:)`` reads it back to an equal recording.
    public var yaml: String {
        var lines: [String] = []
        lines.append("# A device recorded by `airlink record`: edit it freely, Docs/RecordReplay.md says how.")
        lines.append("recording: \(Self.formatVersion)")
        lines.append("name: \(Self.quoted(name))")
        lines.append("id: \(Self.quoted(id.description))")
        lines.append("transport: \(Self.quoted(transport))")
        if !redacted.isEmpty { lines.append("redacted: [\(redacted.map(Self.quoted).joined(separator: ", "))]") }
        if let advertising { lines += Self.lines(advertising) }
        lines.append("services:")
        for service in database.services { lines += Self.lines(service) }
        lines.append("session:")
        lines.append("  duration: \(session.duration.text)")
        lines.append("  subscribed: [\(session.subscribed.map(\.description).joined(separator: ", "))]")
        lines.append("  notifications:\(session.notifications.isEmpty ? " []" : "")")
        for notification in session.notifications {
            lines.append(
                "    - {at: \(notification.time.text), handle: \(notification.handle), "
                    + "value: \(Self.hex(notification.value))}")
        }
        if !session.writes.isEmpty { lines.append("  writes:") }
        for write in session.writes { lines += Self.lines(write) }
        if !session.reads.isEmpty { lines.append("  reads:") }
        for read in session.reads {
            lines.append(
                "    - {at: \(read.time.text), handle: \(read.handle), \(Self.entry(read.value, commented: false))}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func lines(_ advertising: RecordedAdvertising) -> [String] {
        var lines = ["advertising:"]
        if let interval = advertising.interval { lines.append("  interval: \(interval.text)") }
        lines.append("  connectable: \(advertising.isConnectable)")
        if let txPower = advertising.txPower { lines.append("  txPower: \(txPower)") }
        lines.append("  data: \(hex(advertising.data))" + comment(advertising.data))
        if let response = advertising.scanResponse {
            lines.append("  scanResponse: \(hex(response))" + comment(response))
        }
        lines.append("  reports: \(advertising.reports)")
        if let rssi = advertising.rssi {
            lines.append(
                "  rssi: {count: \(rssi.count), min: \(rssi.minimum), p25: \(rssi.lowerQuartile), "
                    + "median: \(rssi.median), p75: \(rssi.upperQuartile), max: \(rssi.maximum)}")
        }
        return lines
    }

    /// A write, its answer and the notifications that followed it (`after` counts from the answer).
    private static func lines(_ write: RecordedWrite) -> [String] {
        var lines = [
            "    - at: \(write.time.text)", "      handle: \(write.handle)",
            "      value: \(hex(write.value))" + comment(write.value),
        ]
        if let error = write.error { lines.append("      writeError: \(errorName(error))") }
        if !write.followed.isEmpty { lines.append("      followed:") }
        for notification in write.followed {
            lines.append(
                "        - {after: \(notification.time.text), handle: \(notification.handle), "
                    + "value: \(hex(notification.value))}")
        }
        return lines
    }

    private static func lines(_ service: RecordedService) -> [String] {
        var lines = ["  - uuid: \(quoted(service.uuid.description))" + name(service.uuid)]
        if !service.isPrimary { lines.append("    primary: false") }
        lines.append("    handles: [\(service.handles.lowerBound), \(service.handles.upperBound)]")
        if !service.includes.isEmpty {
            lines.append("    includes: [\(service.includes.map(\.description).joined(separator: ", "))]")
        }
        lines.append("    characteristics:\(service.characteristics.isEmpty ? " []" : "")")
        for characteristic in service.characteristics {
            lines.append("      - uuid: \(quoted(characteristic.uuid.description))" + name(characteristic.uuid))
            lines.append("        handle: \(characteristic.declarationHandle)")
            lines.append("        valueHandle: \(characteristic.valueHandle)")
            lines.append("        properties: [\(propertyNames(characteristic.properties).joined(separator: ", "))]")
            if let value = characteristic.value { lines.append("        " + entry(value)) }
            if let error = characteristic.writeError { lines.append("        writeError: \(errorName(error))") }
            if !characteristic.descriptors.isEmpty {
                lines.append("        descriptors:")
                for descriptor in characteristic.descriptors {
                    var fields = "uuid: \(quoted(descriptor.uuid.description)), handle: \(descriptor.handle)"
                    var note = ""
                    if let value = descriptor.value {
                        fields += ", " + entry(value, commented: false)
                        if let bytes = value.bytes { note = comment(bytes) }
                    }
                    lines.append("          - {\(fields)}" + note)
                }
            }
        }
        return lines
    }

    /// `value: "0a0b"  # "text"` or `readError: insufficient-authentication`.
    private static func entry(_ value: RecordedValue, commented: Bool = true) -> String {
        switch value {
        case .bytes(let bytes): "value: \(hex(bytes))" + (commented ? comment(bytes) : "")
        case .error(let error): "readError: \(errorName(error))"
        }
    }

    /// The scenario's name of an ATT error (`write-not-permitted`), or its code (`0x80`).
    static func errorName(_ error: ATTError) -> String {
        ScenarioATTError.names.first { $0.1 == error }?.0 ?? "0x" + hex([error.rawValue], quoted: false)
    }

    /// The scenario's names of properties, in bit order.
    static func propertyNames(_ properties: CharacteristicProperties) -> [String] {
        recordingPropertyNames.filter { properties.contains($0.1) }.map(\.0)
    }

    /// Every property bit by the name a recording writes it with.
    static let recordingPropertyNames: [(String, CharacteristicProperties)] = [
        ("broadcast", .broadcast), ("read", .read), ("writeWithoutResponse", .writeWithoutResponse),
        ("write", .write), ("notify", .notify), ("indicate", .indicate),
        ("authenticatedSignedWrites", .authenticatedSignedWrites), ("extendedProperties", .extendedProperties),
    ]

    /// `"0a0b"` (quoted, so that YAML never reads the digits as a number).
    static func hex(_ bytes: [UInt8], quoted: Bool = true) -> String {
        let text = GATTValueFormat.hexText(bytes, prefixed: false)
        return quoted ? "\"\(text)\"" : text
    }

    /// `  # "Thermostat"` when the bytes are printable UTF-8 text of two characters or more.
    private static func comment(_ bytes: [UInt8]) -> String {
        guard bytes.count >= 2, let text = String(validating: bytes, as: UTF8.self),
            text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        else { return "" }
        return "  # \(quoted(text))"
    }

    /// `  # battery-level` for an assigned number with a name.
    private static func name(_ uuid: BluetoothUUID) -> String {
        uuid.name.map { "  # \($0)" } ?? ""
    }

    /// A double-quoted YAML scalar, with `"`, `\` and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\x" + hex([UInt8(scalar.value)], quoted: false)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
