import AirlinkCore
import AirlinkSimulation
import Testing

/// `failNextConnects(N, with:)` fails N attempts of the central, whatever the failure: each
/// injected failure belongs to one attempt, never to an advertising event.
@Suite struct ConnectFailureInjectionTests {
    /// Connects `attempts` times one after another, each with a 2 s timeout; returns how each ended
    /// (`nil`: connected, then disconnected again).
    private func attempts(_ count: Int, after inject: (SimulatedPeripheral) -> Void) async throws -> [AirlinkError
        .Code?]
    {
        let sim = Simulation(seed: 1, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        inject(peripheral)
        let radio = sim.radio
        return try await sim.run { () -> [AirlinkError.Code?] in
            var codes: [AirlinkError.Code?] = []
            for _ in 0..<count {
                do throws(AirlinkError) {
                    _ = try await radio.connect(Fixture.sensorID, timeout: .seconds(2))
                    codes.append(nil)
                    await radio.disconnect(Fixture.sensorID)
                } catch {
                    codes.append(error.code)
                }
            }
            return codes
        }
    }

    @Test func noAnswerForThreeAttemptsFailsThreeAttempts() async throws {
        // Given a sensor advertising every 100 ms that will not answer the next 3 connection requests
        // When the central makes 4 attempts of 2 s each (about 20 advertising events apiece)
        let codes = try await attempts(4) { $0.failNextConnects(3, with: .noAnswer) }

        // Then the first 3 run into their timeouts and the 4th connects
        #expect(codes == [.timeout, .timeout, .timeout, nil])
    }

    @Test func aFailureQueuedBehindANoAnswerBelongsToTheNextAttempt() async throws {
        // Given a sensor that will ignore the next attempt, then abort the one after
        // When the central makes 3 attempts
        let codes = try await attempts(3) { peripheral in
            peripheral.failNextConnects(1, with: .noAnswer)
            peripheral.failNextConnects(1, with: .abortedByLocal)
        }

        // Then the first times out (the abort is not spent on it), the second is aborted, the third connects
        #expect(codes == [.timeout, .connectionFailed, nil])
    }
}
