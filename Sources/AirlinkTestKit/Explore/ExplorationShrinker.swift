import AirlinkCore

/// Cuts a failing plan down to a small one that still fails the same oracle: greedy delta debugging.
///
/// Each pass tries, in order, and keeps every cut after which the run still fails `oracle`: the run's
/// duration (halved, or with every time in it halved), whole apps (the later ones move down a number), whole
/// client entries, peripherals no client uses,
/// faults, subscriptions, reads and writes, disconnections, reconnection attempts, repeats, services and
/// characteristics nothing names, and long values (to one byte). Passes repeat until none cuts
/// anything, or the budget of runs is spent.
public struct ExplorationShrinker: Sendable {
    /// Runs each candidate.
    public var explorer: Explorer
    /// The most runs shrinking may take.
    public var budget: Int

    /// A shrinker running candidates with `explorer`, at most `budget` runs.
    public init(explorer: Explorer = Explorer(), budget: Int = 400) {
        self.explorer = explorer
        self.budget = budget
    }

    /// What shrinking gave: the smallest failing plan found, its failures and how many runs it took.
    public struct Result: Sendable {
        /// The smallest plan that still fails the oracle.
        public var plan: ExplorationPlan
        /// Its failures of that oracle.
        public var failures: [OracleFailure]
        /// Candidate runs made.
        public var runs: Int
    }

    /// Shrinks `plan`, which fails `oracle` with `failures`.
    public func shrink(_ plan: ExplorationPlan, failing oracle: String, failures: [OracleFailure]) async -> Result {
        var best = Result(plan: plan, failures: failures.filter { $0.oracle == oracle }, runs: 0)
        var changed = true
        while changed, best.runs < budget {
            changed = false
            for candidate in Self.candidates(of: best.plan) {
                guard best.runs < budget else { break }
                best.runs += 1
                let outcome = await explorer.run(candidate)
                let same = outcome.failures.filter { $0.oracle == oracle }
                if !same.isEmpty {
                    best.plan = candidate
                    best.failures = same
                    changed = true
                    break  // candidates are recomputed from the smaller plan
                }
            }
        }
        return best
    }

    /// Smaller plans than `plan`, the biggest cuts first.
    static func candidates(of plan: ExplorationPlan) -> [ExplorationPlan] {
        var candidates: [ExplorationPlan] = []
        func with(_ change: (inout ExplorationPlan) -> Void) {
            var copy = plan
            change(&copy)
            if copy != plan { candidates.append(copy) }
        }
        if plan.duration > .seconds(10) {
            with { $0.duration = max(.seconds(5), ($0.duration / 2).roundedToSeconds) }
            with { $0.scaleTimes(by: 2) }
        }
        // An app, when there are several (dropping the only one is dropping every client, tried below).
        let apps = Set(plan.clients.map(\.app)).sorted()
        for app in apps where apps.count > 1 {
            with { $0.removeApp(app) }
        }
        for index in plan.clients.indices { with { $0.clients.remove(at: index) } }
        for peripheral in plan.peripherals where !plan.clients.contains(where: { $0.device == peripheral.name }) {
            with { $0.removePeripheral(peripheral.name) }
        }
        for index in plan.faults.indices { with { $0.faults.remove(at: index) } }
        for (index, client) in plan.clients.enumerated() {
            if !client.subscribe.isEmpty { with { $0.clients[index].subscribe = [] } }
            for operation in client.operations.indices { with { $0.clients[index].operations.remove(at: operation) } }
            if client.disconnectAt != nil { with { $0.clients[index].disconnectAt = nil } }
            if client.unsubscribeAt != nil { with { $0.clients[index].unsubscribeAt = nil } }
            if client.forgetAt != nil { with { $0.clients[index].forgetAt = nil } }
            with { $0.clients[index].reconnection = client.reconnection.fewerAttempts }
            for operation in client.operations.indices where (client.operations[operation].value?.count ?? 0) > 1 {
                with { $0.clients[index].operations[operation].value = [0x01] }
            }
            for operation in client.operations.indices where client.operations[operation].every != nil {
                with {
                    $0.clients[index].operations[operation].every = nil
                    $0.clients[index].operations[operation].count = 1
                }
            }
        }
        if plan.central != nil { with { $0.central = nil } }
        for (index, peripheral) in plan.peripherals.enumerated() {
            if peripheral.mtu != nil { with { $0.peripherals[index].mtu = nil } }
            if peripheral.dataLength != nil { with { $0.peripherals[index].dataLength = nil } }
            guard peripheral.builtIn == nil else { continue }  // its services are the profile's
            for service in peripheral.services.indices.dropFirst() where !plan.names(peripheral, service: service) {
                with { $0.peripherals[index].services.remove(at: service) }
            }
            for (service, content) in peripheral.services.enumerated() {
                for characteristic in content.characteristics.indices.dropFirst()
                where !plan.names(peripheral, service: service, characteristic: characteristic) {
                    with { $0.peripherals[index].services[service].characteristics.remove(at: characteristic) }
                }
                for characteristic in content.characteristics.indices
                where content.characteristics[characteristic].bytes.count > 1 {
                    with { $0.peripherals[index].services[service].characteristics[characteristic].bytes = [0x01] }
                }
            }
        }
        return candidates
    }
}

extension ExplorationPlan {
    /// Divides the duration and every time of the plan by `divisor` (whole milliseconds): the same story,
    /// told faster.
    mutating func scaleTimes(by divisor: Int) {
        func scaled(_ time: Duration) -> Duration { .milliseconds(Int(time / .milliseconds(1)) / divisor) }
        duration = max(.seconds(5), scaled(duration).roundedToSeconds)
        for index in clients.indices {
            clients[index].connectAt = scaled(clients[index].connectAt)
            clients[index].disconnectAt = clients[index].disconnectAt.map(scaled)
            clients[index].unsubscribeAt = clients[index].unsubscribeAt.map(scaled)
            clients[index].forgetAt = clients[index].forgetAt.map(scaled)
            for operation in clients[index].operations.indices {
                clients[index].operations[operation].at = scaled(clients[index].operations[operation].at)
            }
        }
        for fault in faults.indices {
            for entry in faults[fault].entries.indices {
                faults[fault].entries[entry].at = scaled(faults[fault].entries[entry].at)
            }
        }
    }

    /// Removes an app's client entries; the apps after it move down one number.
    mutating func removeApp(_ app: Int) {
        clients.removeAll { $0.app == app }
        for index in clients.indices where clients[index].app > app { clients[index].app -= 1 }
    }

    /// Removes a peripheral with its clients and faults.
    mutating func removePeripheral(_ name: String) {
        peripherals.removeAll { $0.name == name }
        clients.removeAll { $0.device == name }
        faults.removeAll { fault in fault.entries.contains { $0.device == name } }
    }

    /// Whether a client or a fault names the service (or one of its characteristics) of `peripheral`.
    func names(_ peripheral: Peripheral, service: Int, characteristic: Int? = nil) -> Bool {
        let content = peripheral.services[service]
        let uuids = characteristic.map { [content.characteristics[$0].uuid] } ?? content.characteristics.map(\.uuid)
        let references = clients.filter { $0.device == peripheral.name }.flatMap {
            $0.subscribe + $0.operations.map(\.target)
        }
        return references.contains { $0.service == content.uuid && uuids.contains($0.characteristic) }
    }
}

extension ExplorationPlan.Reconnection {
    /// The same strategy with one attempt fewer (none fewer than one), or itself.
    var fewerAttempts: Self {
        switch self {
        case .linear(let wait, let attempts, let timeout) where attempts > 1:
            .linear(wait: wait, attempts: attempts - 1, timeout: timeout)
        case .exponential(let initial, let multiplier, let maximum, let attempts?, let timeout, let jitter)
        where attempts > 1:
            .exponential(
                initialDelay: initial, multiplier: multiplier, maximumDelay: maximum, attempts: attempts - 1,
                timeout: timeout, jitter: jitter)
        default: self
        }
    }
}

extension Duration {
    /// Whole seconds, rounded down.
    var roundedToSeconds: Duration { .seconds(components.seconds) }
}
