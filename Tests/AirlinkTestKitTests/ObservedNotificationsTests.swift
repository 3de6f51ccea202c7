import Airlink
import AirlinkCore
import AirlinkTestKit
import Testing

/// A user's own client code reports the notifications it receives, and the scenario's notification expectations
/// judge them as they judge a `client:` section's.
@Suite struct ObservedNotificationsTests {
    static let yaml = """
        duration: 20s
        world:
          - name: Counter
            id: "C0:FF:EE:00:00:10"
            position: 2
            advertising: {interval: 100ms, localName: Counter, services: ["F110"]}
            services:
              - uuid: "F110"
                characteristics:
                  - {uuid: "F111", properties: [read, notify], type: uint16, value: 0, updates: {every: 1s, add: 1}}
        expect:
          - notifications: {service: "F110", characteristic: "F111"}
            atLeast: 15
          - noNotificationLost: {service: "F110", characteristic: "F111", type: uint16, step: 1}
            device: Counter
        """

    /// Connects, subscribes and reports every value it is notified of with `report`.
    static func subscriber(
        _ report: @escaping @Sendable (ScenarioContext, CharacteristicValue) -> Void
    ) -> @Sendable (ScenarioContext) async -> Void {
        { context in
            let connection = context.manager.connection(to: "C0:FF:EE:00:00:10")
            let service = connection.services.service(BluetoothUUID(0xF110))
            let values = service.values(of: BluetoothUUID(0xF111))
            do throws(AirlinkError) {
                try await connection.connect(timeout: .seconds(5))
                _ = try await service.enableNotifications(for: BluetoothUUID(0xF111))
            } catch {
                context.log("subscribing failed: \(error)")
                return
            }
            for await value in values { report(context, value) }
        }
    }

    @Test func notificationsTheCodeReportsSatisfyTheNotificationExpectations() async throws {
        // Given a counter notifying every second, and expectations on its notifications
        let scenario = try Scenario.parse(Self.yaml)

        // When the user's code subscribes and reports each notified value it receives
        let result = try await ScenarioRunner().run(scenario, client: Self.subscriber { $0.observed($1) })

        // Then the expectations count them: at least 15, none lost, each one more than the last
        #expect(result.passed, "\(result.summary)")
        #expect(result.values.filter(\.notified).count >= 15)
    }

    @Test func valuesReportedAsReadDoNotCountAsNotifications() async throws {
        // Given the same scenario
        let scenario = try Scenario.parse(Self.yaml)

        // When the code reports the same values without saying they were notified
        let result = try await ScenarioRunner().run(
            scenario,
            client: Self.subscriber { context, value in
                context.observed(value.bytes, of: value.characteristic, in: value.service, on: value.device)
            })

        // Then neither notification expectation holds
        #expect(result.expectations.filter { !$0.held }.count == 2, "\(result.summary)")
    }
}
