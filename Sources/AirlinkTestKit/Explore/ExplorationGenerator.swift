import AirlinkCore
import AirlinkProfiles

/// Draws an ``ExplorationPlan`` from a seed: the same seed and limits give the same plan, on every machine.
///
/// What it draws (``ExplorerVersion/current``): 1 to ``maximumPeripherals`` peripherals, most custom, each
/// with 1–3 services of 1–3 characteristics (one counter that notifies; the others bytes values up to 512
/// bytes, readable or not, writable with or without response), some built-in (battery, thermostat,
/// SensorTag), some with their own ATT MTU and data length; sometimes the central's own link parameters
/// (interval, latency, supervision timeout, MTU asked for); a client for most peripherals, connecting
/// with each reconnection strategy and random parameters, subscribing, reading (values that refuse reads
/// too) and writing (long values too), sometimes unsubscribing, forgetting the device in the registry,
/// disconnecting; and up to ``maximumFaults`` faults at random times, overlapping: link drops with each
/// reason, connection failures of each kind, ATT errors, requests never answered or answered late, MTU
/// exchanges refused, reboots, database changes with and without Service Changed, notification bursts,
/// advertising stopped and resumed, out of range and back, adapter power blips.
public struct ExplorationGenerator: Sendable {
    /// The most faults a plan holds.
    public var maximumFaults: Int
    /// The most peripherals a plan's world holds.
    public var maximumPeripherals: Int
    /// The longest run, in virtual time (runs last from 30 s to this).
    public var maximumDuration: Duration
    /// The generator version that draws (one of ``ExplorerVersion/supported``; the current one by default).
    public var version: ExplorerVersion = .current

    /// A generator with the given limits (6 faults, 3 peripherals, 10 minutes by default).
    public init(maximumFaults: Int = 6, maximumPeripherals: Int = 3, maximumDuration: Duration = .seconds(600)) {
        self.maximumFaults = maximumFaults
        self.maximumPeripherals = maximumPeripherals
        self.maximumDuration = max(maximumDuration, .seconds(30))
    }

    /// The plan `seed` names, drawn by ``version``.
    public func plan(seed: UInt64) -> ExplorationPlan { plan(seed: seed, version: version) }

    /// The plan `seed` names under `version` (one of ``ExplorerVersion/supported``; version 2 draws the same
    /// as version 3 up to the apps version 3 adds after it).
    public func plan(seed: UInt64, version: ExplorerVersion) -> ExplorationPlan {
        var random = ExplorationRandom(seed: seed)
        let seconds = random.int(30...Int(maximumDuration.components.seconds))
        let duration = Duration.seconds(seconds)
        let peripherals = (1...random.int(1...max(1, maximumPeripherals))).map { peripheral($0, &random) }
        var clients: [ExplorationPlan.Client] = []
        for peripheral in peripherals where random.chance(85) {
            clients.append(client(of: peripheral, duration: duration, &random))
        }
        // Faults gather in a storm of a minute, so that they overlap one another and the reconnections.
        let storm = random.milliseconds(0...(seconds - 20) * 1000)
        let faults = (0..<random.int(0...max(0, maximumFaults))).map { _ in
            fault(in: peripherals, within: storm..<min(duration, storm + .seconds(60)), &random)
        }
        var plan = ExplorationPlan(
            seed: seed, version: version, duration: duration, peripherals: peripherals, clients: clients,
            faults: faults, central: random.chance(40) ? central(&random) : nil)
        if version.number >= 3 { drawApps(into: &plan, &random) }
        if version.number >= 4 { drawFirmwareUpdates(into: &plan, &random) }
        return plan
    }

    /// Version 4's additions (GATT caching, Docs/GATTCaching.md), drawn after everything else: the apps cache databases
    /// (`databaseCache: verified`) in half the seeds, and in the others the database changes are now and then the
    /// broken devices' (`hash: stale`: handles moved, the Database Hash kept). A stale hash is not drawn with the cache
    /// on: the layers then reuse a cache whose hash still matches, as they must (nothing tells them), and read whatever
    /// the new database put at the cached handles, which the oracles would judge a defect (Docs/GATTCaching.md).
    private func drawFirmwareUpdates(into plan: inout ExplorationPlan, _ random: inout ExplorationRandom) {
        let caching = random.chance(50)
        if caching { plan.databaseCache = .verified }
        for index in plan.faults.indices where plan.faults[index].kind.hasPrefix("changeDatabase") {
            guard !caching, random.chance(40) else { continue }
            plan.faults[index].entries[0].arguments.append(.init(key: "hash", yaml: "stale"))
            plan.faults[index].kind += " stale hash"
        }
    }

    /// Version 3's additions, drawn after everything else: 1–3 apps on the adapter (6, 3 and 1 in ten seeds), each
    /// further app with clients of its own on half the peripherals, which the first app may use too, and now and then a
    /// second entry of the first app for a peripheral it already uses (two parts of the app sharing its connection).
    private func drawApps(into plan: inout ExplorationPlan, _ random: inout ExplorationRandom) {
        // Within the CI budget: further apps now and then, their clients mostly connecting, subscribing,
        // unsubscribing, disconnecting and forgetting, with one read or write at most (the shared link's story).
        let apps =
            switch random.int(0...9) {
            case 0...5: 1
            case 6...8: 2
            default: 3
            }
        for app in Array(2...3).prefix(apps - 1) {
            for peripheral in plan.peripherals where random.chance(50) {
                var entry = client(of: peripheral, duration: plan.duration, &random)
                entry.app = app
                entry.operations = Array(entry.operations.prefix(1))
                plan.clients.append(entry)
            }
        }
        let used = plan.clients.filter { $0.app == 1 }.map(\.device)
        if !used.isEmpty, random.chance(20) {
            let device = random.pick(used)
            if let peripheral = plan.peripherals.first(where: { $0.name == device }) {
                plan.clients.append(client(of: peripheral, duration: plan.duration, &random))
            }
        }
    }

    /// Link parameters within the specification's ranges: intervals of 10–500 ms (whole 5 ms, so that
    /// they are multiples of 1.25 ms written exactly), a latency up to 4, a supervision timeout above
    /// its minimum.
    private func central(_ random: inout ExplorationRandom) -> ExplorationPlan.Central {
        let interval = Duration.milliseconds(5 * random.int(2...100))
        let latency = random.int(0...4)
        let minimum = max(Duration.milliseconds(100), interval * 2 * (latency + 1))
        return ExplorationPlan.Central(
            interval: interval, latency: latency,
            supervisionTimeout: min(.seconds(32), minimum + random.milliseconds(10...4000)),
            mtu: random.chance(30) ? random.int(23...517) : nil)
    }

    // MARK: The world

    private func peripheral(_ index: Int, _ random: inout ExplorationRandom) -> ExplorationPlan.Peripheral {
        // A quarter built-in; the SensorTag rarely: its firmware ticks every 10 ms while connected, the
        // costliest peripheral to simulate (the CI budget of seeds stays within its minute).
        let builtIn: String? =
            switch random.int(0...47) {
            case 0...5: "thermostat"
            case 6...11: "battery"
            case 12: "sensortag"
            default: nil
            }
        return ExplorationPlan.Peripheral(
            name: "P\(index)", id: "E0:00:00:00:00:0\(index)", interval: random.milliseconds(20...500),
            services: builtIn.map(Self.services(ofBuiltIn:)) ?? services(of: index, &random), builtIn: builtIn,
            mtu: random.chance(40) ? random.int(23...517) : nil,
            dataLength: random.chance(25) ? random.int(27...251) : nil)
    }

    /// A built-in's services as its profile declares them (values empty: the profile holds them).
    static func services(ofBuiltIn name: String) -> [ExplorationPlan.Service] {
        let spec: PeripheralSpec =
            switch name {
            case "thermostat": .thermostat()
            case "sensortag": .sensorTag()
            default: .battery()
            }
        let names = ScenarioCharacteristic.propertyNames
        return spec.services.map { service in
            ExplorationPlan.Service(
                uuid: "\(service.uuid)",
                characteristics: service.characteristics.map { characteristic in
                    ExplorationPlan.Characteristic(
                        uuid: "\(characteristic.uuid)",
                        properties: names.filter { characteristic.properties.contains($0.1) }.map(\.0), every: nil,
                        bytes: [])
                })
        }
    }

    /// 1–3 services; the first characteristic of the first is the counter that notifies.
    func services(of peripheral: Int, _ random: inout ExplorationRandom) -> [ExplorationPlan.Service] {
        (1...random.int(1...3)).map { service in
            let characteristics = (1...random.int(1...3)).map { index in
                let uuid = "F\(peripheral)\(service)\(index)"
                if service == 1, index == 1 {
                    return ExplorationPlan.Characteristic(
                        uuid: uuid, properties: ["read", "notify"], every: random.milliseconds(200...5000), bytes: [])
                }
                var properties = ["read", "write", "writeWithoutResponse"].filter { _ in random.chance(60) }
                if properties.isEmpty { properties = ["read"] }
                let length = random.chance(70) ? random.int(1...20) : random.int(21...512)
                return ExplorationPlan.Characteristic(
                    uuid: uuid, properties: properties, every: nil, bytes: random.bytes(length))
            }
            return ExplorationPlan.Service(uuid: "F\(peripheral)\(service)0", characteristics: characteristics)
        }
    }

    // MARK: The workload

    private func client(
        of peripheral: ExplorationPlan.Peripheral, duration: Duration, _ random: inout ExplorationRandom
    ) -> ExplorationPlan.Client {
        let references = peripheral.services.flatMap { service in
            service.characteristics.map { (service.uuid, $0) }
        }
        // What it subscribes to: a custom peripheral's counter, a built-in's first value that notifies.
        let counter = references.first { $0.1.every != nil || $0.1.properties.contains("notify") }
        var operations: [ExplorationPlan.Operation] = []
        for _ in 0..<random.int(0...4) {
            let (service, characteristic) = random.pick(references)
            let target = ExplorationPlan.Reference(
                service: service, characteristic: characteristic.uuid, counter: characteristic.every != nil)
            // Reads of values that do not declare `read` too: the peripheral must refuse them.
            let writable = characteristic.properties.contains("write")
            let withoutResponse = characteristic.properties.contains("writeWithoutResponse")
            let write = (writable || withoutResponse) && random.chance(50)
            let length = random.chance(70) ? random.int(1...20) : random.int(21...512)
            let repeats = random.chance(40)
            operations.append(
                ExplorationPlan.Operation(
                    target: target, at: random.milliseconds(500...Int(duration / .milliseconds(1))),
                    every: repeats ? random.milliseconds(1000...30_000) : nil, count: repeats ? random.int(2...10) : 1,
                    value: write ? random.bytes(length) : nil,
                    withoutResponse: write && withoutResponse && (!writable || random.chance(50))))
        }
        let subscribe =
            if let counter, random.chance(70) {
                [
                    ExplorationPlan.Reference(
                        service: counter.0, characteristic: counter.1.uuid, counter: counter.1.every != nil)
                ]
            } else { [ExplorationPlan.Reference]() }
        let end = Int(duration / .milliseconds(1))
        var client = ExplorationPlan.Client(
            device: peripheral.name, connectAt: random.milliseconds(0...5000),
            connectTimeout: random.milliseconds(2000...10_000), reconnection: reconnection(&random),
            subscribe: subscribe, operations: operations,
            disconnectAt: random.chance(15) ? random.milliseconds(1000...end) : nil)
        if !subscribe.isEmpty, random.chance(15) { client.unsubscribeAt = random.milliseconds(1000...end) }
        if random.chance(15) { client.forgetAt = random.milliseconds(1000...end) }
        return client
    }

    private func reconnection(_ random: inout ExplorationRandom) -> ExplorationPlan.Reconnection {
        switch random.int(0...3) {
        case 0: return .none
        case 1:
            return .linear(
                wait: random.milliseconds(0...5000), attempts: random.int(0...5),
                timeout: random.milliseconds(1000...5000))
        case 2:
            let initial = random.milliseconds(100...2000)
            return .exponential(
                initialDelay: initial, multiplier: Double(random.int(1...3)),
                maximumDelay: initial * random.int(1...10),
                attempts: random.chance(30) ? nil : random.int(0...6), timeout: random.milliseconds(1000...5000),
                jitter: random.pick(["none", "full", "decorrelated"]))
        default:
            return .whenAdvertising(
                attempts: random.chance(30) ? nil : random.int(1...5), timeout: random.milliseconds(1000...5000),
                window: random.chance(30) ? nil : random.milliseconds(1000...20_000))
        }
    }
}
