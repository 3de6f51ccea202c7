import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import Testing

@testable import AirlinkTestKit

/// The scenario keys explorer-v2 draws: the central's link parameters, a peripheral's MTU and data length,
/// MTU refusals, silent database changes, unsubscribing and forgetting.
@Suite struct ScenarioLinkParametersTests {
    static let base = """
        seed: 3
        duration: 20s
        world:
          - name: P1
            id: "E0:00:00:00:00:01"
            mtu: 100
            dataLength: 60
            advertising: {interval: 100ms}
            services:
              - uuid: "F110"
                characteristics:
                  - {uuid: "F111", properties: [read, notify], type: uint32, value: 0, updates: {every: 500ms, add: 1}}
        """

    /// Whether the radio recorded a link ready with `mtu`.
    static func noted(readyWith mtu: UInt16, in records: [TraceRecord]) -> Bool {
        records.linksReady.contains { $0.mtu == mtu }
    }

    @Test func theCentralsParametersAndThePeripheralsMTUShapeTheLink() async throws {
        // Given a central asking for a 50 ms interval and an MTU of 200, and a peripheral answering 100
        let scenario = try Scenario.parse(
            Self.base + """

                central: {interval: 50ms, latency: 1, supervisionTimeout: 2s, mtu: 200}
                client:
                  - device: P1
                """)

        // When it runs
        let result = try await ScenarioRunner().run(scenario)

        // Then the link has the central's parameters, the peripheral's data length, and the smaller MTU
        let records = result.trace.records
        let expected = ConnectionParameters(
            interval: .milliseconds(50), latency: 1, supervisionTimeout: .seconds(2), phy: .le1M, dataLength: 60)
        #expect(
            records.contains { record in
                if case .connected(_, _, expected) = record.event { true } else { false }
            }, "\(records)")
        #expect(Self.noted(readyWith: 100, in: records))
    }

    @Test func badLinkParametersAreRefusedWhenTheFileIsRead() {
        // Given an interval that is not a multiple of 1.25 ms, and an MTU out of range
        // When each is parsed
        // Then each is refused naming what is wrong
        #expect(throws: AirlinkError.self) {
            try Scenario.parse(Self.base + "\ncentral: {interval: 31ms}\n")
        }
        #expect(throws: AirlinkError.self) {
            try Scenario.parse(Self.base.replacingOccurrences(of: "mtu: 100", with: "mtu: 600"))
        }
    }

    @Test func anMTURefusalASilentChangeAnUnsubscribeAndAForgetRunAsWritten() async throws {
        // Given a refused MTU exchange, a database change without Service Changed, and a client that
        // unsubscribes at 5 s and forgets the device at 6 s
        let scenario = try Scenario.parse(
            Self.base + """

                timeline:
                  - {at: 0s, do: respond, device: P1, operation: mtu, error: request-not-supported}
                  - {at: 8s, do: changeDatabase, device: P1, serviceChanged: false, services: [{uuid: "F120",
                      characteristics: [{uuid: "F121", properties: [read], type: uint8, value: 1}]}]}
                client:
                  - device: P1
                    subscribe: [{service: "F110", characteristic: "F111", type: uint32}]
                    unsubscribeAt: 5s
                    forgetAt: 6s
                """)

        // When it runs
        let result = try await ScenarioRunner().run(scenario)

        // Then the exchange keeps 23 bytes, the change is silent, the client unsubscribed and forgot
        // the device, and the registry, forgetting included, agrees with the connections
        let records = result.trace.records
        #expect(Self.noted(readyWith: 23, in: records), "\(records)")
        #expect(records.notes(in: "fault").contains { $0.text.contains("changes its database silently") })
        #expect(
            !records.contains { record in
                guard case .attPDU(_, _, _, let pdu, _) = record.event else { return false }
                return pdu.opcode == .handleValueIndication
            })
        #expect(records.contains { $0.event == .client(.unsubscribed(target: "F111")) })
        #expect(
            records.contains { record in
                if case .client(.forgot("E0:00:00:00:00:01", _)) = record.event { true } else { false }
            })
        #expect(result.registry.isEmpty)
        #expect(result.violations.isEmpty, "\(result.violations)")
    }
}
