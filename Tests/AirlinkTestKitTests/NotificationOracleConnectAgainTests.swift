import AirlinkTestKit
import Testing

/// The notifications oracle when the app connects again: after `terminated`, and after a reconnection that came
/// before the subscription (explorer-v3 seeds 9033 and 7082, shrunk: both were false positives of the oracle).
@Suite struct NotificationOracleConnectAgainTests {
    static func failures(_ yaml: String) async throws -> [OracleFailure] {
        try await Explorer(generator: ExplorationGenerator(), oracles: [NotificationOracle()]).judge(
            try Scenario.parse(yaml))
    }

    @Test func valuesAfterTheAppConnectedAgainAfterTerminatedAreNoViolation() async throws {
        // Given seed 9033, shrunk: one entry of the app disconnects (terminated at 4.49 s), another connects
        // again at 4.707 s and subscribes; the counter notifies every 1.74 s
        let yaml = """
            seed: 9033
            duration: 7s
            world:
              - name: P3
                id: "E0:00:00:00:00:03"
                advertising: {interval: 277ms}
                services:
                  - uuid: "F310"
                    characteristics:
                      - uuid: "F311"
                        properties: [read, notify]
                        type: uint32
                        value: 0
                        updates: {every: 1740ms, add: 1}
            client:
              - device: P3
                connectAt: 4707ms
                connectTimeout: 7566ms
                reconnection: {linear: {wait: 3772ms, attempts: 1, timeout: 3841ms}}
                subscribe: [{service: "F310", characteristic: "F311", type: uint32}]
              - device: P3
                connectAt: 1461ms
                connectTimeout: 6559ms
                reconnection: {linear: {wait: 3147ms, attempts: 1, timeout: 4598ms}}
                disconnectAt: 4475ms
            """

        // When the notifications oracle judges the run
        let failures = try await Self.failures(yaml)

        // Then the values of the new subscription are not "after terminated" (they were, before the oracle
        // ended the terminated span at the app's next connect)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func aReconnectionBeforeTheSubscriptionHasNothingToRestore() async throws {
        // Given seed 7082, shrunk: app 2's disconnect ends the shared link at 3.46 s, app 1 reconnects at 4.22 s,
        // and only then (4.82 s) does app 1's third entry subscribe
        let yaml = """
            seed: 7082
            duration: 40s
            world:
              - name: P2
                id: "E0:00:00:00:00:02"
                advertising: {interval: 176ms}
                services:
                  - uuid: "F210"
                    characteristics:
                      - uuid: "F211"
                        properties: [read, notify]
                        type: uint32
                        value: 0
                        updates: {every: 3035ms, add: 1}
            client:
              - device: P2
                connectAt: 3008ms
                connectTimeout: 3013ms
                reconnection: {whenAdvertising: {attempts: 3, timeout: 4019ms, window: 6105ms}}
              - device: P2
                app: 2
                connectAt: 331ms
                connectTimeout: 9982ms
                reconnection: {whenAdvertising: {attempts: 4, timeout: 3993ms, window: 5703ms}}
                disconnectAt: 3457ms
              - device: P2
                connectAt: 4822ms
                connectTimeout: 5463ms
                reconnection: {whenAdvertising: {attempts: 1, timeout: 2373ms}}
                subscribe: [{service: "F210", characteristic: "F211", type: uint32}]
            """

        // When the notifications oracle judges the run
        let failures = try await Self.failures(yaml)

        // Then the reconnection before the subscribe asks for no restoration (it did, before the oracle looked
        // only at reconnections after the subscription completed)
        #expect(failures.isEmpty, "\(failures)")
    }
}
