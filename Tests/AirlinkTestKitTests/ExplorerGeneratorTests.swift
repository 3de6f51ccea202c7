import AirlinkCore
import Testing

@testable import AirlinkTestKit

@Suite struct ExplorerGeneratorTests {
    @Test func aSeedNamesTheSamePlanAndTheSameFile() throws {
        // Given two generators with the same limits
        let first = ExplorationGenerator()
        let second = ExplorationGenerator()

        for seed: UInt64 in [1, 2, 42, 9_999, .max] {
            // When each draws the plan of a seed
            let plan = first.plan(seed: seed)

            // Then the plans are equal and their scenario files identical byte for byte, and the file parses
            #expect(plan == second.plan(seed: seed))
            #expect(Array(plan.yaml.utf8) == Array(second.plan(seed: seed).yaml.utf8))
            let scenario = try plan.scenario()
            #expect(scenario.world.count == plan.peripherals.count && scenario.client.count == plan.clients.count)
            #expect(scenario.timeline.count == plan.faults.flatMap(\.entries).count)
        }
        // And other seeds draw other plans
        #expect(first.plan(seed: 1).yaml != first.plan(seed: 2).yaml)
    }

    @Test func plansStayWithinTheLimitsAndDrawEveryKindOfFault() throws {
        // Given a generator allowing 4 faults and 2 peripherals
        let generator = ExplorationGenerator(maximumFaults: 4, maximumPeripherals: 2)
        var kinds: [String] = []
        var strategies: [String] = []
        for seed: UInt64 in 1...300 {
            // When it draws 300 plans
            let plan = generator.plan(seed: seed)

            // Then each holds within its limits and parses as a scenario
            #expect(plan.faults.count <= 4 && (1...2).contains(plan.peripherals.count))
            #expect(plan.duration >= .seconds(30) && plan.duration <= .seconds(600))
            _ = try plan.scenario()
            kinds += plan.faults.map { String($0.kind.split(separator: " ")[0]) }
            strategies += plan.clients.map(\.reconnection.name)
        }
        // And together they draw every kind of fault and every strategy
        for kind in [
            "dropLink", "failNextConnects", "respond", "neverRespond", "delayResponses", "reset", "changeDatabase",
            "burstNotifications", "stopAdvertising", "outOfRange", "powerBlip",
        ] {
            #expect(kinds.contains(kind), "\(kind)")
        }
        for strategy in ["none", "linear", "exponential", "whenAdvertising"] {
            #expect(strategies.contains(strategy), "\(strategy)")
        }
    }

    @Test func versionTwoDrawsBuiltInsLinkParametersUnsubscribesForgetsAndMTURefusals() throws {
        // Given the current generator
        let generator = ExplorationGenerator()
        var plans: [ExplorationPlan] = []
        for seed: UInt64 in 1...300 {
            // When it draws 300 plans
            let plan = generator.plan(seed: seed)

            // Then each parses as a scenario with what the plan holds
            let scenario = try plan.scenario()
            #expect((scenario.central != nil) == (plan.central != nil))
            #expect(scenario.world.map(\.builtIn) == plan.peripherals.map(\.builtIn))
            #expect(scenario.world.map(\.mtu) == plan.peripherals.map(\.mtu))
            #expect(scenario.databaseCaching == plan.databaseCache ?? .off)
            plans.append(plan)
        }
        // And together they draw each built-in, per-peripheral MTUs and data lengths, the central's
        // parameters, unsubscribing, forgetting, MTU refusals and silent database changes
        let peripherals = plans.flatMap(\.peripherals)
        for builtIn in ["battery", "thermostat", "sensortag"] {
            #expect(peripherals.contains { $0.builtIn == builtIn }, "\(builtIn)")
        }
        #expect(peripherals.contains { $0.mtu != nil } && peripherals.contains { $0.dataLength != nil })
        #expect(plans.contains { $0.central != nil })
        let clients = plans.flatMap(\.clients)
        #expect(clients.contains { $0.unsubscribeAt != nil } && clients.contains { $0.forgetAt != nil })
        let kinds = plans.flatMap(\.faults).map(\.kind)
        #expect(kinds.contains { $0.hasPrefix("respond mtu") })
        #expect(kinds.contains("changeDatabase silently"))
        #expect(kinds.contains { $0.hasSuffix("stale hash") })
        #expect(plans.contains { $0.databaseCache == .verified } && plans.contains { $0.databaseCache == nil })
        #expect(ExplorerVersion.current.description == "explorer-v4")
    }
}
