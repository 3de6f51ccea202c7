import AirlinkBlueZ
import AirlinkBlueZTestSupport
import AirlinkCore
import Testing

/// Opening a bus has a deadline: a bus socket that accepts and never answers ends in a timeout, at the
/// deadline, never in a wait of minutes.
@Suite struct DBusOpenDeadlineTests {
    @Test func aBusThatNeverAnswersTimesOutAtTheDeadline() throws {
        // Given a bus socket that accepts and never answers
        let bus = try SilentBus()
        defer { bus.close() }

        // When a connection is opened with a deadline of 300 ms
        let clock = ContinuousClock()
        let started = clock.now
        var thrown: DBusError?
        do {
            _ = try DBusConnection(bus: .address(bus.address), timeout: .milliseconds(300))
        } catch {
            thrown = error
        }

        // Then it fails with a timeout at the deadline
        guard case .timeout(_, let after) = thrown else {
            Issue.record("expected a timeout, got \(String(describing: thrown))")
            return
        }
        #expect(after == .milliseconds(300))
        #expect(started.duration(to: clock.now) < .seconds(5))
        // And the error an app sees is a typed timeout that says what to check
        let error = try #require(thrown).openingError(.address(bus.address), context: "test")
        #expect(error.code == .timeout)
        #expect(error.message.contains("did not answer within"), "\(error)")
    }

    @Test func theTransportFailsWithATypedTimeout() async throws {
        // Given a bus socket that accepts and never answers
        let bus = try SilentBus()
        defer { bus.close() }

        // When BlueZ is opened on it
        do {
            _ = try await BlueZTransport.open(BlueZTransport.Configuration(busAddress: bus.address))
            Issue.record("opened a transport on a bus that never answers")
        } catch {
            // Then it is a timeout, within the open deadline
            #expect(error.code == .timeout, "\(error)")
            #expect(error.message.contains("did not answer within 5s"), "\(error)")
        }
    }
}
