import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkTestKit

/// Several apps on one adapter: the scenario format's `app:`, the runner's device manager per app, explorer-v3
/// drawing apps, and the oracles judging each (app, device) on its own.
@Suite struct ExplorerAppsTests {
    static let device: DeviceID = "E0:00:00:00:00:01"

    static let world = """
        seed: 3
        duration: 20s
        world:
          - name: P1
            id: "E0:00:00:00:00:01"
            advertising: {interval: 100ms}
            services:
              - uuid: "F110"
                characteristics:
                  - {uuid: "F111", properties: [read, notify], type: uint32, value: 0, updates: {every: 500ms, add: 1}}
        """

    @Test func aClientsAppIsDecodedAndAWrongOneRefusedNamingTheKey() throws {
        // Given a client entry in the second app, and entries with an app out of range or not a number
        let good = try Scenario.parse(Self.world + "\nclient:\n  - device: P1\n  - device: P1\n    app: 2\n")

        // Then the app is read (the first by default), and the bad ones are refused naming `app` and what to type
        #expect(good.client.map { $0.app ?? 1 } == [1, 2] && good.appCount == 2)
        for bad in ["0", "9", "two"] {
            let error = #expect(throws: AirlinkError.self) {
                try Scenario.parse(Self.world + "\nclient:\n  - device: P1\n    app: \(bad)\n")
            }
            #expect(error?.code == .invalidSpecification)
            #expect(error?.message.contains("client[0].app") == true, "\(error?.message ?? "")")
        }
    }

    @Test func eachAppHasItsOwnManagerRegistryAndTraceLines() async throws {
        // Given two apps using P1, the first forgetting it at 5 s
        let scenario = try Scenario.parse(
            Self.world + """

                client:
                  - device: P1
                    forgetAt: 5s
                  - device: P1
                    app: 2
                    connectAt: 1s
                """)

        // When it runs
        let result = try await ScenarioRunner().run(scenario)

        // Then each app connected on its own, the second's lines carry its number, and its registry keeps P1
        #expect(result.passed, "\(result.summary)")
        #expect(result.events.filter { $0.name == "connected" }.map(\.app) == [1, 2])
        #expect(result.trace.records.contains { $0.event == .client(.app(2, .connected(Self.device))) })
        #expect(result.registries.map { $0.map(\.id) } == [[], [Self.device]])
    }

    @Test func versionThreeDrawsAppsAfterVersionTwoAndKeepsItsPlans() throws {
        // Given the generator drawing as version 2 and as version 3
        var old = ExplorationGenerator()
        old.version = ExplorerVersion(number: 2)
        var current = ExplorationGenerator()
        current.version = ExplorerVersion(number: 3)
        var apps: Set<Int> = []
        var sharedEntries = false
        for seed: UInt64 in 1...200 {
            // When each draws a seed
            let two = old.plan(seed: seed)
            let three = current.plan(seed: seed)

            // Then version 3's plan is version 2's with further client entries after it, all parsing
            #expect(two.clients.allSatisfy { $0.app == 1 })
            #expect(Array(three.clients.prefix(two.clients.count)) == two.clients)
            #expect(three.peripherals == two.peripherals && three.faults == two.faults)
            _ = try three.scenario()
            apps.formUnion(three.clients.map(\.app))
            let firstApp = three.clients.filter { $0.app == 1 }.map(\.device)
            sharedEntries = sharedEntries || Set(firstApp).count < firstApp.count
        }
        // And together they draw one to three apps, and two entries of one app for one peripheral
        #expect(apps == [1, 2, 3])
        #expect(sharedEntries)
    }

    @Test func versionFourDrawsFirmwareUpdatesAfterVersionThreeAndKeepsItsPlans() throws {
        // Given the generator drawing as version 3 and as version 4
        var three = ExplorationGenerator()
        three.version = ExplorerVersion(number: 3)
        let four = ExplorationGenerator()
        #expect(four.version == ExplorerVersion(number: 4))
        for seed: UInt64 in 1...200 {
            // When each draws a seed
            let old = three.plan(seed: seed)
            let new = four.plan(seed: seed)

            // Then version 4's plan is version 3's, with the cache setting and stale hashes added (never both)
            #expect(new.peripherals == old.peripherals && new.clients == old.clients && new.central == old.central)
            var unstale = new.faults
            for index in unstale.indices where unstale[index].kind.hasSuffix(" stale hash") {
                #expect(new.databaseCache == nil)
                unstale[index].kind.removeLast(" stale hash".count)
                #expect(unstale[index].entries[0].arguments.popLast()?.yaml == "stale")
            }
            #expect(unstale == old.faults)
            _ = try new.scenario()
        }
    }

    @Test func theShrinkerDropsAWholeAppAndRenumbersTheLaterOnes() {
        // Given a plan whose clients are in apps 1, 2 and 3
        var plan = ExplorationGenerator().plan(seed: 1)
        let template =
            plan.clients.first
            ?? ExplorationPlan.Client(
                device: "P1", connectAt: .zero, connectTimeout: .seconds(5), reconnection: .none, subscribe: [],
                operations: [])
        plan.clients = [1, 2, 3].map { app in
            var client = template
            client.app = app
            return client
        }

        // When the shrinker lists its candidates
        let candidates = ExplorationShrinker.candidates(of: plan)

        // Then dropping app 2 leaves apps 1 and 2 (the third moved down)
        #expect(candidates.contains { $0.clients.map(\.app) == [1, 2] && $0.clients.count == 2 })
    }

    @Test func anOracleFailsOnAFaultPlantedInOneAppOnly() {
        // Given two apps on P1: the second's operation never ended, and it saw `reconnected` with no loss;
        // the first app's events alone are sound
        let connected = ScenarioEventRecord(
            time: .seconds(1), event: .connection(Self.device, .connected(.init(mtu: 23))))
        var second = connected
        second.app = 2
        var planted = ScenarioEventRecord(
            time: .seconds(3), event: .connection(Self.device, .reconnected(.init(mtu: 23))))
        planted.app = 2
        var read = ScenarioOperationRecord(
            name: "read F111", start: .seconds(2), timeout: .seconds(30), completions: [])
        read.app = 2
        var first = ExplorationObservation.Client(device: Self.device, reconnection: .none, subscribed: [])
        first.app = 1
        var other = first
        other.app = 2
        let observation = ExplorationObservation(
            end: .seconds(60), events: [connected, second, planted], operations: [read], clients: [first, other])

        // When the oracles judge the run
        let terminal = TerminalEventOracle().violations(in: observation)
        let liveness = LivenessOracle().violations(in: observation)

        // Then each names the second app, and nothing of the first
        #expect(terminal.count == 1 && terminal.allSatisfy { $0.hasPrefix("app2 E0:00:00:00:00:01: reconnected") })
        #expect(liveness.count == 1 && liveness.allSatisfy { $0.hasPrefix("app2 read F111") })

        // And the same events in one app would be judged as one connection: the second `connected` is out of place
        var unplanted = planted
        unplanted.app = 1
        let merged = ExplorationObservation(
            end: .seconds(60), events: [connected, connected, unplanted], clients: [first])
        #expect(TerminalEventOracle().violations(in: merged).count == 2)
    }

    @Test func theLinksOracleFailsWhenAnAppsConnectionOutlivesTheLinkOnAir() {
        // Given both apps connected over one link that went down on air at 10 s (the first app's disconnect):
        // the first app reported terminated, the second nothing (it had joined the first app's link)
        func event(_ seconds: Int, _ event: ConnectionEvent, app: Int) -> ScenarioEventRecord {
            var record = ScenarioEventRecord(time: .seconds(seconds), event: .connection(Self.device, event))
            record.app = app
            return record
        }
        let down = TraceRecord(
            time: AirlinkInstant(offset: .seconds(10)),
            event: .disconnected(adapter: 0, device: Self.device, reason: .localHostTerminated))
        var first = ExplorationObservation.Client(device: Self.device, reconnection: .none, subscribed: [])
        var second = first
        first.app = 1
        second.app = 2
        let up = ConnectionEvent.connected(LinkInfo(mtu: 23))
        let silent = ExplorationObservation(
            end: .seconds(60), events: [event(1, up, app: 1), event(2, up, app: 2), event(10, .terminated, app: 1)],
            records: [down], clients: [first, second])
        let heard = ExplorationObservation(
            end: .seconds(60),
            events: silent.events + [event(10, .lost(AirlinkError(.linkLost, "the link was lost")), app: 2)],
            records: [down], clients: [first, second])

        // When the links oracle judges each
        // Then the second app's silence fails it, naming the app; the run where it saw the loss passes
        let violations = LinkAgreementOracle().violations(in: silent)
        #expect(
            violations.count == 1
                && violations.allSatisfy { $0.hasPrefix("app2 E0:00:00:00:00:01: the link went down") })
        #expect(LinkAgreementOracle().violations(in: heard).isEmpty)
    }

    /// The links oracle's second: an app's loss within 1 s of the link going down on air agrees with it, a later one
    /// does not (the boundary itself agrees).
    @Test(arguments: [(900, true), (1_000, true), (1_100, false)])
    func theLinksOracleGivesTheAppOneSecondToReportTheLoss(milliseconds: Int, agrees: Bool) {
        // Given one app connected over a link that went down on air at 10 s, and its loss reported `milliseconds` later
        var client = ExplorationObservation.Client(device: Self.device, reconnection: .none, subscribed: [])
        client.app = 1
        func event(_ time: Duration, _ event: ConnectionEvent) -> ScenarioEventRecord {
            var record = ScenarioEventRecord(time: time, event: .connection(Self.device, event))
            record.app = 1
            return record
        }
        let down = TraceRecord(
            time: AirlinkInstant(offset: .seconds(10)),
            event: .disconnected(adapter: 0, device: Self.device, reason: .supervisionTimeout))
        let lost = ConnectionEvent.lost(AirlinkError(.linkLost, "the link was lost"))
        let observation = ExplorationObservation(
            end: .seconds(60),
            events: [
                event(.seconds(1), .connected(LinkInfo(mtu: 23))),
                event(.seconds(10) + .milliseconds(milliseconds), lost),
            ],
            records: [down], clients: [client])

        // When the links oracle judges it
        let violations = LinkAgreementOracle().violations(in: observation)

        // Then a loss within the second passes, a later one is named
        #expect(violations.isEmpty == agrees, "\(violations)")
    }

    @Test func anUnsubscribeAskedForWhileTheSubscribeRanEndsTheWantingOfItsApp() async throws {
        // Given seed 4401's scenario: app 1 subscribes to P1's counter over a slow link (435 ms
        // events) and asks to unsubscribe at 13.06 s, while the subscribe is still discovering; the layers
        // finish the subscribe (15.95 s), then write the descriptor off (16.39 s); app 2 uses another device
        let scenario = try Scenario.parse(
            """
            seed: 4401
            duration: 21s
            central: {interval: 435ms, latency: 1, supervisionTimeout: 5147ms}
            world:
              - name: P1
                id: "E0:00:00:00:00:01"
                advertising: {interval: 254ms}
                services:
                  - uuid: "F110"
                    characteristics:
                      - uuid: "F111"
                        properties: [read, notify]
                        type: uint32
                        value: 0
                        updates: {every: 2004ms, add: 1}
              - builtIn: sensortag
                name: P2
                id: "E0:00:00:00:00:02"
                advertising: {interval: 328ms}
            client:
              - device: P1
                connectAt: 4158ms
                connectTimeout: 6757ms
                subscribe: [{service: "F110", characteristic: "F111", type: uint32}]
                unsubscribeAt: 13061ms
              - device: P2
                app: 2
                connectAt: 4500ms
            """)

        // When the shared-notifications oracle judges the run
        let failures = try await Explorer(
            generator: ExplorationGenerator(), oracles: [SharedNotificationsOracle()]
        ).judge(scenario)

        // Then the descriptor written off after app 1's own unsubscribe is no violation (it was one when the
        // oracle counted only unsubscribes started after the subscribe completed)
        #expect(failures.isEmpty, "\(failures)")
    }
}
