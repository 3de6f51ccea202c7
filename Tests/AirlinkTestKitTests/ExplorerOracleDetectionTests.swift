import Airlink
import AirlinkCore
import AirlinkRegistry
import AirlinkSimulation
import Testing

@testable import AirlinkTestKit

/// The oracles explorer-v2 added (registry, GATT permissions, attempts on air at their definition's time)
/// on hand-built records: each fails on a sequence that breaks its definition and passes on one that keeps it.
@Suite struct ExplorerOracleDetectionTests {
    /// The device, link, loss and connection events of the first oracle suite.
    typealias Shared = ExplorerOracleTests

    static func record(_ seconds: Double, _ event: TraceEvent) -> TraceRecord {
        TraceRecord(time: AirlinkInstant(offset: .milliseconds(Int(seconds * 1000))), event: event)
    }

    static func connectionRecord(count: Int) -> ConnectionRecord {
        ConnectionRecord(
            id: Shared.device, name: "P1", firstConnected: RecordTimestamp(secondsSince1970: 0), connectionCount: count)
    }

    @Test func registryFailsOnACountThatIgnoresAForgetOrAMissedConnection() {
        // Given a device connected at 1 s, lost, reconnected at 5 s, forgotten at 8 s, reconnected at 12 s
        let events = [
            Shared.event(1, .connected(Shared.link)), Shared.event(4, .lost(Shared.loss)),
            Shared.event(5, .reconnected(Shared.link)), Shared.event(10, .lost(Shared.loss)),
            Shared.event(12, .reconnected(Shared.link)),
        ]
        let forget = ScenarioOperationRecord(
            name: "forget \(Shared.device)", start: .seconds(8), timeout: .seconds(30),
            completions: [(.seconds(8), "ok")])
        func judge(_ records: [ConnectionRecord], forgets: Bool = true) -> [String] {
            RegistryOracle().violations(
                in: ExplorationObservation(
                    end: .seconds(20), events: events, operations: forgets ? [forget] : [], registry: records))
        }

        // When the registry oracle judges the records
        // Then one connection since the forget passes; the whole history, or none, fails
        #expect(judge([Self.connectionRecord(count: 1)]).isEmpty, "\(judge([Self.connectionRecord(count: 1)]))")
        #expect(judge([Self.connectionRecord(count: 3)]).contains { $0.contains("since it was forgotten at t=8s") })
        #expect(judge([]).contains { $0.contains("has no record") })
        // And without the forget, the three connections must all be counted
        #expect(judge([Self.connectionRecord(count: 3)], forgets: false).isEmpty)
        #expect(!judge([Self.connectionRecord(count: 2)], forgets: false).isEmpty)
    }

    @Test func permissionsFailOnAReadServedOfAValueThatDoesNotDeclareRead() throws {
        // Given a peripheral whose F112 is writable but not readable, and F113 readable
        let scenario = try Scenario.parse(
            """
            duration: 30s
            world:
              - name: P1
                id: "E0:00:00:00:00:01"
                services:
                  - uuid: "F110"
                    characteristics:
                      - {uuid: "F112", properties: [write], type: bytes, value: "01"}
                      - {uuid: "F113", properties: [read], type: bytes, value: "02"}
            """)
        let devices = [ScenarioResult.Device(name: "P1", id: Shared.device, advertisingData: [], connectable: true)]
        let databases = ExplorationObservation.databaseTimelines(of: scenario, devices: devices, actions: [])
        let database = try #require(databases[Shared.device]?.first?.database)
        let f112 = try #require(database.valueHandle(of: BluetoothUUID(0xF112)))
        let f113 = try #require(database.valueHandle(of: BluetoothUUID(0xF113)))
        func pdu(_ second: Double, _ direction: ATTDirection, _ pdu: ATTPDU) -> TraceRecord {
            Self.record(second, .attPDU(adapter: 0, device: Shared.device, direction: direction, pdu: pdu, bytes: []))
        }
        func judge(_ records: [TraceRecord]) -> [String] {
            GATTPermissionsOracle().violations(
                in: ExplorationObservation(end: .seconds(30), records: records, databases: databases))
        }

        // When the permissions oracle judges a read of each, and a refused read of F112
        let served = [pdu(1, .toPeripheral, .readRequest(handle: f112)), pdu(1.1, .toCentral, .readResponse([1]))]
        let refused = [
            pdu(1, .toPeripheral, .readRequest(handle: f112)),
            pdu(1.1, .toCentral, .errorResponse(request: .readRequest, handle: f112, error: .readNotPermitted)),
            pdu(2, .toPeripheral, .readRequest(handle: f113)), pdu(2.1, .toCentral, .readResponse([2])),
        ]

        // Then the read served of F112 is named; the refusal and the read of F113 pass
        #expect(judge(served).contains { $0.contains("served a read of F112") }, "\(judge(served))")
        #expect(judge(refused).isEmpty, "\(judge(refused))")
    }

    @Test func reconnectionFailsOnAnAttemptStartedOnAirOffItsDefinitionsTime() {
        // Given a linear strategy (wait 2 s): lost at 10 s, attempt 1 announced at 10 s, reconnected at 12.5 s
        let events = [
            Shared.event(1, .connected(Shared.link)), Shared.event(10, .lost(Shared.loss)),
            Shared.event(10, .willReconnect(attempt: 1, remainingAttempts: 3, trigger: .after(.seconds(2)))),
            Shared.event(12.5, .reconnected(Shared.link)),
        ]
        let client = ExplorationObservation.Client(
            device: Shared.device, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)),
            subscribed: [])
        func judge(connectingAt second: Double) -> [String] {
            let records = [
                Self.record(second, .connecting(adapter: 0, device: Shared.device, timeout: .seconds(3)))
            ]
            return ReconnectionModelOracle().violations(
                in: ExplorationObservation(end: .seconds(30), events: events, records: records, clients: [client]))
        }

        // When the attempt starts on air at 12 s, or 100 ms late
        // Then the first passes and the late one is named with both times
        #expect(judge(connectingAt: 12).isEmpty, "\(judge(connectingAt: 12))")
        #expect(
            judge(connectingAt: 12.1).contains { $0.contains("started on air at t=12100ms") && $0.contains("t=12s") })
    }

    @Test func notificationsExcuseValuesAfterDisconnectAndFailOnARestorationAfterUnsubscribing() {
        // Given a subscribed client: a value on air at 5.1 s after the app's disconnect() at 5 s, unseen
        let subscription = ScenarioOperationRecord(
            name: "subscribe F111", start: .seconds(1), timeout: .seconds(30), completions: [(.seconds(1), "ok")])
        let disconnect = ScenarioOperationRecord(
            name: "disconnect \(Shared.device)", start: .seconds(5), timeout: .seconds(30),
            completions: [(.milliseconds(5300), "ok")])
        let onAir = Self.record(
            5.1,
            .attPDU(
                adapter: 0, device: Shared.device, direction: .toCentral,
                pdu: .handleValueNotification(handle: ATTHandle(rawValue: 12), value: [1, 0, 0, 0]), bytes: []))
        let subscribed = ExplorationObservation.Client(
            device: Shared.device, reconnection: .linear(wait: .seconds(1), attempts: 3, timeout: .seconds(3)),
            subscribed: ["F111"])
        let disconnected = ExplorationObservation(
            end: .seconds(10), events: [Shared.event(1, .connected(Shared.link)), Shared.event(5.3, .terminated)],
            operations: [subscription, disconnect], records: [onAir], clients: [subscribed])
        // And one that unsubscribed at 3 s, whose notifications came back after a reconnection at 6 s
        var unsubscribing = subscribed
        unsubscribing.unsubscribeAt = .seconds(3)
        let unsubscribe = ScenarioOperationRecord(
            name: "unsubscribe F111", start: .seconds(3), timeout: .seconds(30), completions: [(.seconds(3), "ok")])
        let restored = ScenarioEventRecord(
            time: .milliseconds(6100),
            event: .services(
                Shared.device,
                .notificationsRestored(
                    service: BluetoothUUID(0xF110), characteristic: BluetoothUUID(0xF111), mode: .notify)))
        let restoredAfter = ExplorationObservation(
            end: .seconds(10),
            events: [
                Shared.event(1, .connected(Shared.link)), Shared.event(5, .lost(Shared.loss)),
                Shared.event(6, .reconnected(Shared.link)), restored,
            ], operations: [subscription, unsubscribe], clients: [unsubscribing])

        // When the notifications oracle judges them
        // Then the value after disconnect() is excused, and the restoration after unsubscribing is named
        let excused = NotificationOracle().violations(in: disconnected)
        #expect(!excused.contains { $0.contains("never reached the app") }, "\(excused)")
        #expect(
            NotificationOracle().violations(in: restoredAfter).contains {
                $0.contains("notifications restored at t=6100ms after the app disabled them")
            })
    }

    @Test func faultsDoNotChargeAFailureToALinkUpOnAirBeforeTheFault() throws {
        // Given failNextConnects(3) at 108.5 s, and a reconnection whose link came up on air at 108.4 s
        // but whose setup (MTU, discovery) ended at 108.8 s
        let timeline = try Scenario.parse(
            """
            duration: 120s
            timeline:
              - {at: 108500ms, do: failNextConnects, device: P1, count: 3, failure: failed-to-establish}
            """
        ).timeline
        let devices = [ScenarioResult.Device(name: "P1", id: Shared.device, advertisingData: [], connectable: true)]
        let events = [
            Shared.event(1, .connected(Shared.link)), Shared.event(105, .lost(Shared.loss)),
            Shared.event(105, .willReconnect(attempt: 1, remainingAttempts: 1, trigger: .after(.seconds(1)))),
            Shared.event(108.8, .reconnected(Shared.link)),
        ]
        func judge(linkUpAt second: Double) -> [String] {
            let up = Self.record(
                second,
                .connected(
                    adapter: 0, device: Shared.device,
                    parameters: ConnectionParameters(
                        interval: .milliseconds(30), latency: 0, supervisionTimeout: .milliseconds(420), phy: .le1M,
                        dataLength: 251)))
            return FaultInjectionOracle().violations(
                in: ExplorationObservation(
                    end: .seconds(120), events: events, records: [up], actions: timeline, devices: devices,
                    clients: [
                        ExplorationObservation.Client(
                            device: Shared.device,
                            reconnection: .linear(wait: .seconds(1), attempts: 1, timeout: .seconds(5)), subscribed: [])
                    ]))
        }

        // When the fault oracle judges it, and the same with the link up after the fault
        // Then the attempt answered before the fault owes nothing; one answered after it is named
        #expect(judge(linkUpAt: 108.4).isEmpty, "\(judge(linkUpAt: 108.4))")
        #expect(judge(linkUpAt: 108.6).contains { $0.contains("an attempt succeeded") })
    }
}
