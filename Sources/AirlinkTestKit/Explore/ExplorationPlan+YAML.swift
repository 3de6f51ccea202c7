import AirlinkCore

extension ExplorationPlan {
    /// The plan as a scenario file: what `airlink simulate FILE` runs, byte for byte the same for a seed.
    public var yaml: String {
        var lines = [
            "# Drawn by \(version) from seed \(seed): airlink explore --seeds \(seed)...\(seed)",
            "name: explore-\(seed)",
            "seed: \(seed)",
            "duration: \(duration.scenarioText)",
        ]
        if let central { lines.append("central: \(central.yaml)") }
        if let databaseCache { lines.append("databaseCache: \(databaseCache.rawValue)") }
        lines.append(peripherals.isEmpty ? "world: []" : "world:")
        for peripheral in peripherals { lines += peripheral.yaml }
        let entries = faults.flatMap(\.entries).enumerated().sorted {
            ($0.element.at, $0.offset) < ($1.element.at, $1.offset)
        }.map(\.element)
        lines.append(entries.isEmpty ? "timeline: []" : "timeline:")
        lines += entries.map(\.yaml)
        lines.append(clients.isEmpty ? "client: []" : "client:")
        for client in clients { lines += client.yaml }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The scenario the plan's ``yaml`` describes, parsed as a file would be.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` if the generator drew something the
    ///   format refuses (a defect of the generator).
    public func scenario() throws(AirlinkError) -> Scenario {
        try Scenario.parse(yaml, source: "explore-\(seed).yaml")
    }
}

extension ExplorationPlan.Central {
    var yaml: String {
        "{interval: \(interval.scenarioText), latency: \(latency), supervisionTimeout: "
            + "\(supervisionTimeout.scenarioText)\(mtu.map { ", mtu: \($0)" } ?? "")}"
    }
}

extension ExplorationPlan.Peripheral {
    var yaml: [String] {
        var lines = builtIn.map { ["  - builtIn: \($0)", "    name: \(name)"] } ?? ["  - name: \(name)"]
        lines += ["    id: \"\(id)\"", "    advertising: {interval: \(interval.scenarioText)}"]
        if let mtu { lines.append("    mtu: \(mtu)") }
        if let dataLength { lines.append("    dataLength: \(dataLength)") }
        guard builtIn == nil else { return lines }
        lines.append("    services:")
        for service in services { lines += service.yaml(indent: "      ") }
        return lines
    }
}

extension ExplorationPlan.Service {
    func yaml(indent: String) -> [String] {
        ["\(indent)- uuid: \"\(uuid)\"", "\(indent)  characteristics:"]
            + characteristics.map { "\(indent)    - \($0.yaml)" }
    }
}

extension ExplorationPlan.Characteristic {
    var yaml: String {
        let head = "{uuid: \"\(uuid)\", properties: [\(properties.joined(separator: ", "))]"
        if let every { return head + ", type: uint32, value: 0, updates: {every: \(every.scenarioText), add: 1}}" }
        return head + ", type: bytes, value: \"\(ScenarioValueType.hex(bytes))\"}"
    }
}

extension ExplorationPlan.Reference {
    var yaml: String {
        "service: \"\(service)\", characteristic: \"\(characteristic)\", type: \(counter ? "uint32" : "bytes")"
    }
}

extension ExplorationPlan.Fault.Entry {
    var yaml: String {
        var parts = ["at: \(at.scenarioText)", "do: \(action)"]
        if let device { parts.append("device: \(device)") }
        parts += arguments.map { "\($0.key): \($0.yaml)" }
        return "  - {\(parts.joined(separator: ", "))}"
    }
}

extension ExplorationPlan.Client {
    var yaml: [String] {
        var lines = ["  - device: \(device)"] + (app == 1 ? [] : ["    app: \(app)"])
        lines += [
            "    connectAt: \(connectAt.scenarioText)", "    connectTimeout: \(connectTimeout.scenarioText)",
            "    reconnection: \(reconnection.yaml)",
        ]
        if !subscribe.isEmpty {
            lines.append("    subscribe:")
            lines += subscribe.map { "      - {\($0.yaml)}" }
        }
        let reads = operations.filter { $0.value == nil }
        let writes = operations.filter { $0.value != nil }
        for (key, list) in [("read", reads), ("write", writes)] where !list.isEmpty {
            lines.append("    \(key):")
            lines += list.map { "      - {\($0.yaml)}" }
        }
        if let unsubscribeAt { lines.append("    unsubscribeAt: \(unsubscribeAt.scenarioText)") }
        if let forgetAt { lines.append("    forgetAt: \(forgetAt.scenarioText)") }
        if let disconnectAt { lines.append("    disconnectAt: \(disconnectAt.scenarioText)") }
        return lines
    }
}

extension ExplorationPlan.Operation {
    var yaml: String {
        var parts = [target.yaml, "at: \(at.scenarioText)"]
        if let every { parts += ["every: \(every.scenarioText)", "count: \(count)"] }
        if let value {
            parts[0] = "service: \"\(target.service)\", characteristic: \"\(target.characteristic)\", type: bytes"
            parts.append("value: \"\(ScenarioValueType.hex(value))\"")
            if withoutResponse { parts.append("withoutResponse: true") }
        }
        return parts.joined(separator: ", ")
    }
}

extension ExplorationPlan.Reconnection {
    var yaml: String {
        switch self {
        case .none:
            return "none"
        case .linear(let wait, let attempts, let timeout):
            return "{linear: {wait: \(wait.scenarioText), attempts: \(attempts), timeout: \(timeout.scenarioText)}}"
        case .exponential(let initial, let multiplier, let maximum, let attempts, let timeout, let jitter):
            let count = attempts.map { ", attempts: \($0)" } ?? ""
            let factor = multiplier == multiplier.rounded() ? "\(Int(multiplier))" : "\(multiplier)"
            return "{exponential: {initialDelay: \(initial.scenarioText), multiplier: \(factor), "
                + "maximumDelay: \(maximum.scenarioText)\(count), timeout: \(timeout.scenarioText), jitter: \(jitter)}}"
        case .whenAdvertising(let attempts, let timeout, let window):
            let count = attempts.map { "attempts: \($0), " } ?? ""
            let within = window.map { ", window: \($0.scenarioText)" } ?? ""
            return "{whenAdvertising: {\(count)timeout: \(timeout.scenarioText)\(within)}}"
        }
    }
}
