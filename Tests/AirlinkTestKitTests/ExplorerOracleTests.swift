import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkTestKit

/// Each oracle on hand-built records: it fails on a sequence that breaks its definition and passes on one
/// that keeps it.
@Suite struct ExplorerOracleTests {
    static let device: DeviceID = "E0:00:00:00:00:01"
    static let link = LinkInfo(mtu: 23)
    static let loss = AirlinkError(.linkLost, "the link was lost")

    static func event(_ seconds: Double, _ event: ConnectionEvent) -> ScenarioEventRecord {
        ScenarioEventRecord(time: .milliseconds(Int(seconds * 1000)), event: .connection(device, event))
    }

    static func client(_ reconnection: ExplorationPlan.Reconnection, subscribed: [String] = [])
        -> ExplorationObservation.Client
    {
        ExplorationObservation.Client(device: device, reconnection: reconnection, subscribed: subscribed)
    }

    /// Notifications on air at these seconds, each valued its second.
    static func notifiedOnAir(at seconds: [Int]) -> [TraceRecord] {
        seconds.map { second in
            TraceRecord(
                time: AirlinkInstant(offset: .seconds(second)),
                event: .attPDU(
                    adapter: 0, device: device, direction: .toCentral,
                    pdu: .handleValueNotification(handle: ATTHandle(rawValue: 3), value: [UInt8(second)]),
                    bytes: []))
        }
    }

    static func operation(_ name: String, start: Double, timeout: Double, ends: [Double]) -> ScenarioOperationRecord {
        ScenarioOperationRecord(
            name: name, start: .milliseconds(Int(start * 1000)), timeout: .milliseconds(Int(timeout * 1000)),
            completions: ends.map { (.milliseconds(Int($0 * 1000)), "ok") })
    }

    @Test func livenessFailsOnALateANeverEndingOrATwiceEndingOperation() {
        // Given operations that end late, never, twice, and one that ends in time
        let bad = ExplorationObservation(
            end: .seconds(100),
            operations: [
                Self.operation("read F112", start: 1, timeout: 30, ends: [31.5]),
                Self.operation("connect E0", start: 0, timeout: 5, ends: []),
                Self.operation("write F113", start: 2, timeout: 30, ends: [3, 4]),
            ])
        let good = ExplorationObservation(
            end: .seconds(10),
            operations: [
                Self.operation("read F112", start: 1, timeout: 30, ends: [30]),
                Self.operation("connect E0", start: 8, timeout: 5, ends: []),
            ])

        // When the liveness oracle judges them
        // Then each bad one is named, and the good ones (one still pending at the end) pass
        let violations = LivenessOracle().violations(in: bad)
        #expect(violations.count == 3, "\(violations)")
        #expect(violations.contains { $0.contains("never ended") })
        #expect(LivenessOracle().violations(in: good).isEmpty)
    }

    @Test func terminalFailsOnAnEventAfterGaveUp() {
        // Given a device that gave up, then reported a reconnection
        let events = [
            Self.event(1, .connected(Self.link)), Self.event(5, .lost(Self.loss)),
            Self.event(5, .willReconnect(attempt: 1, remainingAttempts: 1, trigger: .after(.seconds(1)))),
            Self.event(8, .gaveUp(Self.loss)), Self.event(9, .reconnected(Self.link)),
        ]
        let client = Self.client(.linear(wait: .seconds(1), attempts: 1, timeout: .seconds(2)))
        let bad = ExplorationObservation(end: .seconds(10), events: events, clients: [client])
        let good = ExplorationObservation(end: .seconds(10), events: Array(events.dropLast()), clients: [client])

        // When the terminal-event oracle judges it
        // Then the event after gaveUp is named; without it the run passes
        #expect(
            TerminalEventOracle().violations(in: bad) == ["\(Self.device): reconnected at t=9s after gaveUp at t=8s"])
        #expect(TerminalEventOracle().violations(in: good).isEmpty)
    }

    @Test func reconnectionModelFailsOnAShortenedWaitAWrongCountAndAnEarlyGiveUp() {
        // Given a linear strategy (wait 2 s, 2 attempts of 3 s)
        let client = Self.client(.linear(wait: .seconds(2), attempts: 2, timeout: .seconds(3)))
        let announce = { (attempt: Int, remaining: Int) in
            ConnectionEvent.willReconnect(attempt: attempt, remainingAttempts: remaining, trigger: .after(.seconds(2)))
        }
        // A good run: lost at 10 s, attempts announced at 10 s and 15 s (the first failed at 12 + 3 = 15 s)
        let good = [
            Self.event(1, .connected(Self.link)), Self.event(10, .lost(Self.loss)), Self.event(10, announce(1, 2)),
            Self.event(15, announce(2, 1)), Self.event(20, .gaveUp(Self.loss)),
        ]
        // A blip from 10.5 s to 11 s shortened the wait: the attempt failed at 11.2 s, before 12 s
        let blip = [
            Self.event(1, .connected(Self.link)), Self.event(10, .lost(Self.loss)), Self.event(10, announce(1, 2)),
            ScenarioEventRecord(time: .milliseconds(10_500), event: .adapterStateChanged(.poweredOff)),
            ScenarioEventRecord(time: .seconds(11), event: .adapterStateChanged(.poweredOn)),
            Self.event(11.2, announce(2, 1)), Self.event(16.2, .gaveUp(Self.loss)),
        ]
        // A count that does not go down, and a give-up after one attempt
        let counts = [
            Self.event(1, .connected(Self.link)), Self.event(10, .lost(Self.loss)), Self.event(10, announce(1, 2)),
            Self.event(15, .gaveUp(Self.loss)),
        ]
        let oracle = ReconnectionModelOracle()
        func judge(_ events: [ScenarioEventRecord]) -> [String] {
            oracle.violations(in: ExplorationObservation(end: .seconds(60), events: events, clients: [client]))
        }

        // When the reference model judges each
        // Then the good run passes and each defect is named
        #expect(judge(good).isEmpty, "\(judge(good))")
        #expect(judge(blip).contains { $0.contains("before t=12s") }, "\(judge(blip))")
        #expect(judge(counts).contains { $0.contains("gave up after 1 attempt(s), the strategy allows 2") })
    }

    @Test func notificationsFailOnADuplicateAndOnAValueLostOutsideAnOutage() {
        // Given values on air at 1, 2 and 3 s after a subscription completed at 0.5 s
        let onAir = Self.notifiedOnAir(at: [1, 2, 3])
        func notified(_ second: Int, _ value: UInt8, missed: Int = 0) -> ScenarioObservedValue {
            ScenarioObservedValue(
                time: .seconds(second), device: Self.device, service: BluetoothUUID(0xF110),
                characteristic: BluetoothUUID(0xF111), bytes: [value], notified: true, missedBefore: missed)
        }
        let subscription = Self.operation("subscribe F111", start: 0, timeout: 30, ends: [0.5])
        func judge(_ values: [ScenarioObservedValue]) -> [String] {
            NotificationOracle().violations(
                in: ExplorationObservation(
                    end: .seconds(10), operations: [subscription], values: values, records: onAir,
                    clients: [Self.client(.none, subscribed: ["F111"])]))
        }

        // When the app got all three, a duplicate, one missing, or one missing but counted as missed
        // Then only the duplicate and the unexplained loss fail
        #expect(judge([notified(1, 1), notified(2, 2), notified(3, 3)]).isEmpty)
        #expect(judge([notified(1, 1), notified(2, 2), notified(2, 2), notified(3, 3)]).count == 1)
        #expect(judge([notified(1, 1), notified(3, 3)]).contains { $0.contains("never reached the app") })
        #expect(judge([notified(1, 1), notified(3, 3, missed: 1)]).isEmpty)
    }

    @Test func notificationsAreNotOwedAfterTheAppAskedToDisconnect() {
        // Given values on air at 1, 2 and 3 s after a subscription at 0.5 s, and a disconnect() called at 1.5 s
        // that BlueZ answers late (the BlueZ explorer's case: the link stays up, the peripheral keeps notifying)
        let onAir = Self.notifiedOnAir(at: [1, 2, 3])
        let received = ScenarioObservedValue(
            time: .seconds(1), device: Self.device, service: BluetoothUUID(0xF110),
            characteristic: BluetoothUUID(0xF111), bytes: [1], notified: true, missedBefore: 0)
        let operations = [
            Self.operation("subscribe F111", start: 0, timeout: 30, ends: [0.5]),
            Self.operation("disconnect \(Self.device)", start: 1.5, timeout: 30, ends: [5]),
        ]

        // When the app got only the value before its disconnect()
        let violations = NotificationOracle().violations(
            in: ExplorationObservation(
                end: .seconds(4), events: [Self.event(0.2, .connected(Self.link))], operations: operations,
                values: [received], records: onAir, clients: [Self.client(.none, subscribed: ["F111"])]))

        // Then nothing is missing: disconnect() forgets enabled notifications
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test func attBearerFailsOnASecondRequestOutstandingAndAnInvalidPDU() {
        // Given a link where the client sends a read, then another before the response
        func pdu(_ second: Double, _ direction: ATTDirection, _ pdu: ATTPDU, bytes: [UInt8]? = nil) -> TraceRecord {
            TraceRecord(
                time: AirlinkInstant(offset: .milliseconds(Int(second * 1000))),
                event: .attPDU(
                    adapter: 0, device: Self.device, direction: direction, pdu: pdu, bytes: bytes ?? pdu.encoded))
        }
        let up = TraceRecord(
            time: AirlinkInstant(offset: .zero),
            event: .connected(
                adapter: 0, device: Self.device,
                parameters: ConnectionParameters(
                    interval: .milliseconds(30), latency: 0, supervisionTimeout: .seconds(4), phy: .le1M,
                    dataLength: 27)))
        let read = ATTPDU.readRequest(handle: ATTHandle(rawValue: 3))
        let good = [
            up, pdu(1, .toPeripheral, read), pdu(1.1, .toCentral, .readResponse([1])), pdu(2, .toPeripheral, read),
        ]
        let twice = [up, pdu(1, .toPeripheral, read), pdu(1.05, .toPeripheral, read)]
        let invalid = [up, pdu(1, .toPeripheral, .readRequest(handle: ATTHandle(rawValue: 0)))]
        func judge(_ records: [TraceRecord]) -> [String] {
            ATTBearerOracle().violations(in: ExplorationObservation(end: .seconds(10), records: records))
        }

        // When the bearer oracle judges each
        // Then the good link passes, and the second request and the handle 0x0000 are named
        #expect(judge(good).isEmpty, "\(judge(good))")
        #expect(judge(twice).contains { $0.contains("was outstanding") })
        #expect(judge(invalid).contains { $0.contains("handle 0x0000") })
    }

    @Test func faultsFailWhenAnAttemptOwedAnInjectedFailureSucceeds() throws {
        // Given failNextConnects(2) on P1 at 10 s, with its link dropped at once
        let timeline = try Scenario.parse(
            """
            duration: 60s
            timeline:
              - {at: 10s, do: failNextConnects, device: P1, count: 2, failure: no-answer}
            """
        ).timeline
        let devices = [ScenarioResult.Device(name: "P1", id: Self.device, advertisingData: [], connectable: true)]
        let announce = { (attempt: Int) in
            ConnectionEvent.willReconnect(attempt: attempt, remainingAttempts: nil, trigger: .after(.seconds(1)))
        }
        let start = [
            Self.event(1, .connected(Self.link)), Self.event(10, .lost(Self.loss)), Self.event(10, announce(1)),
        ]
        // The first attempt fails, the second succeeds: one failure was never taken
        let consumed = start + [Self.event(13, announce(2)), Self.event(15, .reconnected(Self.link))]
        // Both fail, the third succeeds
        let good =
            start + [Self.event(13, announce(2)), Self.event(16, announce(3)), Self.event(18, .reconnected(Self.link))]
        func judge(_ events: [ScenarioEventRecord]) -> [String] {
            FaultInjectionOracle().violations(
                in: ExplorationObservation(
                    end: .seconds(60), events: events, actions: timeline, devices: devices,
                    clients: [Self.client(.linear(wait: .seconds(1), attempts: 5, timeout: .seconds(2)))]))
        }

        // When the fault oracle judges each
        // Then the success owed a failure is named, and the good run passes
        #expect(judge(consumed).contains { $0.contains("an attempt succeeded (reconnected at t=15s)") })
        #expect(judge(good).isEmpty, "\(judge(good))")
    }
}
