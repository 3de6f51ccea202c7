import AirlinkCore

extension ExplorationGenerator {
    /// The disconnection reasons a dropped link is drawn with (the scenario format's names).
    static let reasons = [
        "supervision-timeout", "remote-user-terminated", "remote-low-resources", "remote-power-off",
        "local-host-terminated", "ll-response-timeout", "failed-to-establish",
    ]
    /// The ways a connection attempt is drawn to fail.
    static let failures = ["no-answer", "in-progress", "le-connection-abort-by-local", "failed-to-establish"]
    /// The ATT errors a request is drawn to be answered with.
    static let errors = [
        "read-not-permitted", "write-not-permitted", "invalid-handle", "unlikely-error", "insufficient-resources",
        "invalid-attribute-value-length", "insufficient-authentication",
    ]

    /// One fault at a random time of `window` on a random peripheral.
    func fault(
        in peripherals: [ExplorationPlan.Peripheral], within window: Range<Duration>, _ random: inout ExplorationRandom
    ) -> ExplorationPlan.Fault {
        typealias Argument = ExplorationPlan.Fault.Argument
        let peripheral = random.pick(peripherals)
        let at = random.milliseconds(
            Int(window.lowerBound / .milliseconds(1))...Int(window.upperBound / .milliseconds(1)))
        func entry(_ action: String, _ arguments: [Argument] = [], at time: Duration? = nil, adapter: Bool = false)
            -> ExplorationPlan.Fault.Entry
        {
            .init(at: time ?? at, action: action, device: adapter ? nil : peripheral.name, arguments: arguments)
        }
        func operation() -> Argument { Argument(key: "operation", yaml: random.pick(["any", "read", "write"])) }
        switch random.int(0...12) {
        case 0:
            let reason = random.pick(Self.reasons)
            return .init(kind: "dropLink \(reason)", entries: [entry("dropLink", [.init(key: "reason", yaml: reason)])])
        case 1:
            let failure = random.pick(Self.failures)
            let count = Argument(key: "count", yaml: "\(random.int(1...3))")
            var entries = [entry("failNextConnects", [count, .init(key: "failure", yaml: failure)])]
            if random.chance(70) {  // the link drops at once, so that attempts meet the failures
                entries.append(entry("dropLink", [.init(key: "reason", yaml: random.pick(Self.reasons))]))
            }
            return .init(kind: "failNextConnects \(failure)", entries: entries)
        case 2:
            let error = random.pick(Self.errors)
            let arguments = [
                operation(), .init(key: "error", yaml: error), .init(key: "times", yaml: "\(random.int(1...3))"),
            ]
            return .init(kind: "respond \(error)", entries: [entry("respond", arguments)])
        case 3:
            let arguments = [operation(), Argument(key: "times", yaml: "\(random.int(1...2))")]
            return .init(kind: "neverRespond", entries: [entry("neverRespond", arguments)])
        case 4:
            let delay = random.milliseconds(10...40_000)
            let arguments = [
                operation(), Argument(key: "delay", yaml: delay.scenarioText),
                Argument(key: "times", yaml: "\(random.int(1...3))"),
            ]
            return .init(kind: "delayResponses", entries: [entry("delayResponses", arguments)])
        case 5:
            return .init(kind: "reset", entries: [entry("reset")])
        case 6:
            let index = Int(peripheral.name.dropFirst()) ?? 1
            let services = self.services(of: index, &random).map { service in
                let characteristics = service.characteristics.map(\.yaml).joined(separator: ", ")
                return "{uuid: \"\(service.uuid)\", characteristics: [\(characteristics)]}"
            }
            let argument = Argument(key: "services", yaml: "[\(services.joined(separator: ", "))]")
            if random.chance(30) {  // a firmware that does not tell its centrals
                let silent = Argument(key: "serviceChanged", yaml: "false")
                return .init(kind: "changeDatabase silently", entries: [entry("changeDatabase", [argument, silent])])
            }
            return .init(kind: "changeDatabase", entries: [entry("changeDatabase", [argument])])
        case 7:
            guard
                let counter = peripheral.services.lazy.flatMap(\.characteristics).first(where: {
                    $0.properties.contains("notify")
                })?.uuid
            else { return .init(kind: "reset", entries: [entry("reset")]) }
            let arguments = [
                Argument(key: "characteristic", yaml: "\"\(counter)\""),
                Argument(key: "count", yaml: "\(random.int(1...50))"),
            ]
            return .init(kind: "burstNotifications", entries: [entry("burstNotifications", arguments)])
        case 8:
            let back = at + random.milliseconds(1000...30_000)
            return .init(
                kind: "stopAdvertising", entries: [entry("stopAdvertising"), entry("startAdvertising", at: back)])
        case 9:
            let back = at + random.milliseconds(1000...60_000)
            return .init(kind: "outOfRange", entries: [entry("moveOutOfRange"), entry("moveBackInRange", at: back)])
        case 11:
            // The MTU exchange of the next connections refused: Request Not Supported keeps 23 bytes,
            // another error fails the exchange.
            let error = random.chance(60) ? "request-not-supported" : random.pick(Self.errors)
            let arguments = [
                Argument(key: "operation", yaml: "mtu"), Argument(key: "error", yaml: error),
                Argument(key: "times", yaml: "\(random.int(1...3))"),
            ]
            return .init(kind: "respond mtu \(error)", entries: [entry("respond", arguments)])
        default:
            let on = at + random.milliseconds(10...20_000)
            return .init(
                kind: "powerBlip",
                entries: [entry("powerOffAdapter", adapter: true), entry("powerOnAdapter", at: on, adapter: true)])
        }
    }
}
