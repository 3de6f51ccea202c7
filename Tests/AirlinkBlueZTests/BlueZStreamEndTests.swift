import AirlinkBlueZTestSupport
import AirlinkCore
import Testing

@testable import AirlinkBlueZ

/// What a stream's consumer sees once the stream's source is gone: every element it got, if the
/// stream finished within `limit` (`nil` if it was still open then).
private func elementsUntilEnd<S: AsyncSequence & Sendable>(_ stream: S, within limit: Duration) async throws
    -> [S.Element]? where S.Element: Sendable
{
    let outcome = try await endedWithin(limit) {
        var seen: [S.Element] = []
        for try await element in stream { seen.append(element) }
        return seen
    }
    guard let outcome, case .success(let seen) = outcome.result else { return nil }
    return seen
}

/// A database to publish.
private let services = [
    Service(BluetoothUUID(0x180F)) {
        Characteristic(BluetoothUUID(0x2A19), properties: [.read, .notify], value: UInt8(87))
    }
]

/// The peripheral role's streams end, and its waiting calls fail at once, when the peripheral is closed,
/// bluetoothd leaves the bus or the adapter is removed.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZPeripheralEndTests {
    enum Ending: String, CaseIterable, Sendable {
        case closed, bluetoothdLeaves, adapterRemoved
    }

    @Test(arguments: Ending.allCases)
    func theEndFinishesEveryStreamAndFailsTheWaitingRegistration(ending: Ending) async throws {
        // Given a peripheral (calls may wait 10 s) with two event streams, and a registration BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let peripheral = try BlueZPeripheral(busAddress: fake.address, environment: .live())
        let streams = [peripheral.peripheralEvents(), peripheral.peripheralEvents()]
        try await fake.hangNext("RegisterApplication")

        // When the peripheral ends while the app publishes
        let outcome = try await endedWithin(.seconds(5)) {
            try await peripheral.publish(name: "Test", services: services)
        } after: {
            try await fake.waitForCall("RegisterApplication")
            switch ending {
            case .closed: peripheral.close()
            case .bluetoothdLeaves: try await fake.releaseName()
            case .adapterRemoved: try await fake.removeAdapter()
            }
        }

        // Then the registration fails at once, saying the peripheral ended
        let (result, took) = try #require(outcome, "publish was still waiting after 5 s")
        #expect(code(result) == .transportUnavailable)
        #expect(took < .seconds(4), "took \(took)")
        // And every stream handed out finishes
        for stream in streams {
            #expect(try await elementsUntilEnd(stream, within: .seconds(5)) != nil, "a stream was still open")
        }
        // And a stream asked for later is finished, and later calls fail the same way
        #expect(try await elementsUntilEnd(peripheral.peripheralEvents(), within: .seconds(5))?.isEmpty == true)
        let again = await #expect(throws: AirlinkError.self) {
            try await peripheral.publish(name: "Again", services: services)
        }
        #expect(again?.code == .transportUnavailable)
    }
}

/// The central role's event streams end when bluetoothd leaves the bus, after saying so.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZTransportEndTests {
    @Test func bluetoothdLeavingEndsEveryEventStream() async throws {
        // Given a transport with an event stream
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        let events = transport.events()

        // When bluetoothd leaves the bus
        try await fake.releaseName()

        // Then the stream says the adapter is unavailable, and ends
        let seen = try #require(try await elementsUntilEnd(events, within: .seconds(5)), "the stream was still open")
        guard case .adapterStateChanged(.unavailable(let why))? = seen.last else {
            Issue.record("the last event should be the adapter becoming unavailable: \(seen)")
            return
        }
        #expect(why.contains("bluetoothd"))
        // And a stream asked for later is finished
        #expect(try await elementsUntilEnd(transport.events(), within: .seconds(5))?.isEmpty == true)
    }
}

/// Every BlueZ stream ends, and every waiting call fails at once, when the bus itself goes away.
@Suite(.serialized)
struct BlueZBusGoneTests {
    @Test func theBusGoingAwayEndsEveryStreamAndFailsTheWaitingRegistration() async throws {
        // Given, on a fixture of its own, a transport and a peripheral with event streams, and a
        // registration BlueZ never answers
        let fake = try await FakeBlueZ.start()
        defer { fake.stop() }
        let transport = try await fake.transport()
        let peripheral = try BlueZPeripheral(busAddress: fake.address, environment: .live())
        let transportEvents = transport.events()
        let peripheralEvents = peripheral.peripheralEvents()
        try await fake.hangNext("RegisterApplication")

        // When the fake BlueZ stops (its dbus-daemon with it) while the app publishes
        let outcome = try await endedWithin(.seconds(5)) {
            try await peripheral.publish(name: "Test", services: services)
        } after: {
            try await fake.waitForCall("RegisterApplication")
            fake.stop()
        }

        // Then the registration fails at once, and both streams end
        let (result, took) = try #require(outcome, "publish was still waiting after 5 s")
        #expect(code(result) == .transportUnavailable)
        #expect(took < .seconds(4), "took \(took)")
        #expect(try await elementsUntilEnd(peripheralEvents, within: .seconds(5)) != nil, "peripheral stream open")
        #expect(try await elementsUntilEnd(transportEvents, within: .seconds(5)) != nil, "transport stream open")
    }
}
