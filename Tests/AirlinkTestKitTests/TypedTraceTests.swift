import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Testing

/// A scenario's trace is typed records (the layers' events, registry saves, the client's actions,
/// the inspectors' lines); its text is their rendering.
@Suite struct TypedTraceTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// The events of a shipped scenario's run, and whether its records render to its text.
    private static func run(_ name: String) async throws -> (events: [TraceEvent], rendersToText: Bool) {
        let result = try await ScenarioRunner().run(try Scenario.load(path: ShippedScenarios.path(name)))
        let rendered = result.trace.records.map { "t=\($0.time) \($0.event.category) \($0.event.text)\n" }.joined()
        return (result.trace.records.map(\.event), rendered == result.trace.text)
    }

    @Test func aLinkLossIsRecordedAsTypedLayerRegistryAndClientEvents() async throws {
        // Given the shipped link-loss scenario (a loss at 10 s, one failed attempt, a reconnection)
        // When it runs
        let (events, rendersToText) = try await Self.run("linear-link-loss.yaml")

        // Then the client's connect, the loss, the attempts with their delay, the reconnection with
        // its MTU and the registry's count are records carrying their values
        let device = Self.thermostat
        #expect(events.contains(.client(.connected(device))))
        #expect(events.contains { if case .layer(.event(.connection(device, .lost))) = $0 { true } else { false } })
        #expect(
            events.contains(
                .layer(
                    .event(
                        .connection(
                            device, .willReconnect(attempt: 2, remainingAttempts: 2, trigger: .after(.seconds(2))))))))
        #expect(events.contains(.connecting(adapter: 0, device: device, timeout: .seconds(3))))
        #expect(
            events.contains { event in
                guard case .layer(.event(.connection(device, .reconnected(let link)))) = event else { return false }
                return link.mtu == 247
            })
        #expect(
            events.contains(
                .layer(.registrySaved(device: device, what: .connection, connectionCount: 2, serviceCount: 0))))
        // And only free-form notes remain lines, and the records render to the trace's text
        let freeForm = events.compactMap { event -> String? in
            guard case .line(let category, _) = event else { return nil }
            return category
        }
        #expect(Set(freeForm).isSubset(of: ["radio", "att", "peripheral", "fault", "scenario"]))
        #expect(rendersToText)
    }

    @Test func anInspectorSessionIsRecordedAsTypedInspectorAndClientEvents() async throws {
        // Given the shipped inspector session (a client observes the "Test Server" inspector)
        // When it runs
        let (events, rendersToText) = try await Self.run("inspector-session.yaml")

        // Then what the central did to the inspector and what the client listed, read and was
        // notified of are records carrying their values
        let central: DeviceID = "5A:1A:00:00:00:01"
        let client: DeviceID = "5A:1A:00:00:00:02"
        #expect(events.contains(.inspector(.centralConnected(inspector: "Test Server", central: central))))
        #expect(
            events.contains(
                .inspector(
                    .subscriptionChanged(inspector: "Test Server", central: central, value: "enabled", mode: .notify))))
        #expect(events.contains(.inspector(.written(inspector: "Test Server", identifier: "enabled", value: "false"))))
        #expect(
            events.contains(
                .client(
                    .inspectorListed(
                        client,
                        values: [
                            .init(identifier: "temperature", type: "Double"),
                            .init(identifier: "enabled", type: "Bool"),
                            .init(identifier: "label", type: "String"),
                        ]))))
        #expect(events.contains(.client(.read(target: "temperature", value: "21.5"))))
        #expect(events.contains(.client(.notified(target: "temperature", value: "22.5", missed: 0))))
        #expect(events.contains(.client(.wrote(target: "enabled", value: "false"))))
        #expect(rendersToText)
    }
}
