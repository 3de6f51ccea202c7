import AirlinkTestKit
import Testing

/// What the notifications oracle allows, each in a shrunk scenario of the seed it names: a reconnection of a connection
/// other than the one the app subscribed on (10736), and a burst of one value whose first copy went out in the app's
/// outage (15102; 25276 was the same); and of the faults oracle: an attempt pending when failNextConnects came (23953).
@Suite struct ExplorerV4FindingsTests {
    @Test func aReconnectionAfterTheSubscribedConnectionEndedHasNothingToRestore() async throws {
        // Given seed 10736's scenario: the app subscribes (1.26 s), its other entry's disconnect ends that connection
        // (terminated at 1.5 s), then connects again without subscribing (2.75 s); the adapter goes off and on, and
        // that connection reconnects (29.18 s)
        let yaml = """
            seed: 10736
            duration: 70s
            databaseCache: verified
            world:
              - name: P2
                id: "E0:00:00:00:00:02"
                advertising: {interval: 398ms}
                services:
                  - uuid: "F210"
                    characteristics:
                      - uuid: "F211"
                        properties: [read, notify]
                        type: uint32
                        value: 0
                        updates: {every: 315ms, add: 1}
            timeline:
              - {at: 20957ms, do: powerOffAdapter}
              - {at: 28321ms, do: powerOnAdapter}
            client:
              - device: P2
                connectAt: 188ms
                connectTimeout: 6152ms
                reconnection: none
                subscribe:
                  - {service: "F210", characteristic: "F211", type: uint32}
              - device: P2
                connectAt: 2166ms
                connectTimeout: 5224ms
                reconnection: {whenAdvertising: {attempts: 2, timeout: 3519ms, window: 14049ms}}
                disconnectAt: 1499ms
            """

        // When the notifications oracle judges the run
        let failures = try await ExplorerV3FindingsTests.failures(yaml)

        // Then no restoration is owed: the subscription ended with the connection it was made on (the oracle
        // expected one within 30 s of the reconnection)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func aBurstOfOneValueIsMatchedToItsOwnSendingNotToACopyInTheOutage() async throws {
        // Given seed 15102's scenario: two apps share the link; it drops (57.2 s), app 3 reconnects first and gets
        // value 17 (60.66 s) while app 1 is still in its outage; app 1 restores (62.22 s), then the peripheral
        // bursts 23 notifications of the same value 17 (62.86 s)
        let yaml = """
            seed: 15102
            duration: 69s
            world:
              - name: P1
                id: "E0:00:00:00:00:01"
                advertising: {interval: 300ms}
                services:
                  - uuid: "F110"
                    characteristics:
                      - uuid: "F111"
                        properties: [read, notify]
                        type: uint32
                        value: 0
                        updates: {every: 3568ms, add: 1}
                      - {uuid: "F112", properties: [write, writeWithoutResponse], type: bytes, value: "60fbe5"}
            timeline:
              - {at: 57205ms, do: dropLink, device: P1, reason: ll-response-timeout}
              - {at: 62843ms, do: burstNotifications, device: P1, characteristic: "F111", count: 23}
            client:
              - device: P1
                connectAt: 113ms
                connectTimeout: 4716ms
                reconnection: {linear: {wait: 4725ms, attempts: 1, timeout: 1785ms}}
                subscribe:
                  - {service: "F110", characteristic: "F111", type: uint32}
              - device: P1
                app: 3
                connectAt: 1224ms
                connectTimeout: 6242ms
                reconnection: {linear: {wait: 1901ms, attempts: 1, timeout: 3301ms}}
                subscribe:
                  - {service: "F110", characteristic: "F111", type: uint32}
            """

        // When the notifications oracle judges the run
        let failures = try await ExplorerV3FindingsTests.failures(yaml)

        // Then app 1's 23 values are the burst's 23 (the oracle matched the first to the copy sent in the outage
        // and called the burst's last one lost)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test(arguments: [2, 1])
    func anAttemptPendingAtTheFaultTakesTheFirstFailureOwed(count: Int) async throws {
        // Given seed 23953's scenario: two apps on the adapter reconnect P3; an attempt is on air (543.83 s) when
        // failNextConnects(count) comes (544.04 s); its answer (544.09 s) is the first failure, the next attempt's the
        // second, and the third attempt brings the link up (545.92 s)
        let yaml = """
            seed: 23953
            duration: 595s
            central: {interval: 240ms, latency: 1, supervisionTimeout: 4171ms}
            databaseCache: verified
            world:
              - name: P2
                id: "E0:00:00:00:00:02"
                advertising: {interval: 64ms}
                services:
                  - uuid: "F210"
                    characteristics:
                      - uuid: "F211"
                        properties: [read, notify]
                        type: uint32
                        value: 0
                        updates: {every: 473ms, add: 1}
              - name: P3
                id: "E0:00:00:00:00:03"
                advertising: {interval: 427ms}
                services:
                  - uuid: "F310"
                    characteristics:
                      - uuid: "F311"
                        properties: [read, notify]
                        type: uint32
                        value: 0
                        updates: {every: 1767ms, add: 1}
            timeline:
              - {at: 517450ms, do: powerOffAdapter}
              - {at: 525351ms, do: powerOnAdapter}
              - {at: 544040ms, do: failNextConnects, device: P3, count: \(count), failure: le-connection-abort-by-local}
              - {at: 544040ms, do: dropLink, device: P3, reason: local-host-terminated}
            client:
              - device: P3
                connectAt: 1051ms
                connectTimeout: 6456ms
                reconnection:
                  exponential:
                    {initialDelay: 546ms, multiplier: 3, maximumDelay: 546ms, timeout: 3149ms, jitter: decorrelated}
              - device: P3
                app: 2
                connectAt: 3647ms
                connectTimeout: 5286ms
                reconnection:
                  exponential: {initialDelay: 303ms, multiplier: 2, maximumDelay: 303ms, timeout: 1013ms, jitter: full}
              - device: P2
                connectAt: 3963ms
                connectTimeout: 9756ms
                reconnection: none
            """

        // When the faults oracle judges the run
        let failures = try await ExplorerV3FindingsTests.failures(yaml, oracle: FaultInjectionOracle())

        // Then the third attempt's success is no violation (the oracle counted only attempts started after the
        // fault, so the success was the second of those); with one failure owed, the pending attempt alone takes it
        // (a first fix of the oracle then built the range fault...pending attempt, backwards, and trapped)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func anotherEntrySubscribingAgainAfterAnUnsubscribeWantsTheRestoration() async throws {
        // Given seed 35771's scenario: one entry of the app unsubscribes (1.87 s), another subscribes again (1.99 s);
        // app 2's disconnect drops the shared link (57.7 s) and the app's connection reconnects and restores (59.8 s)
        let yaml = """
            seed: 35771
            duration: 106s
            world:
              - name: P1
                id: "E0:00:00:00:00:01"
                advertising: {interval: 352ms}
                services:
                  - uuid: "F110"
                    characteristics:
                      - uuid: "F111"
                        properties: [read, notify]
                        type: uint32
                        value: 0
                        updates: {every: 2928ms, add: 1}
            timeline: []
            client:
              - device: P1
                connectAt: 1943ms
                connectTimeout: 3774ms
                reconnection:
                  exponential:
                    {initialDelay: 1216ms, multiplier: 2, maximumDelay: 7296ms, timeout: 3411ms, jitter: none}
                subscribe:
                  - {service: "F110", characteristic: "F111", type: uint32}
              - device: P1
                app: 2
                connectAt: 824ms
                connectTimeout: 7503ms
                reconnection: none
                disconnectAt: 57724ms
              - device: P1
                connectAt: 1474ms
                connectTimeout: 4493ms
                reconnection:
                  exponential:
                    initialDelay: 1053ms
                    multiplier: 3
                    maximumDelay: 1053ms
                    attempts: 1
                    timeout: 4841ms
                    jitter: decorrelated
                subscribe:
                  - {service: "F110", characteristic: "F111", type: uint32}
                unsubscribeAt: 1553ms
            """

        // When the notifications oracle judges the run
        let failures = try await ExplorerV3FindingsTests.failures(yaml)

        // Then the restoration is what the app wanted (the oracle looked only at the entry that unsubscribed)
        #expect(failures.isEmpty, "\(failures)")
    }
}
