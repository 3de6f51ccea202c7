import AirlinkCore
import AirlinkTestSupport
import Testing

@testable import AirlinkSimulation

/// The central's own set-up of a new link (MTU exchange, Service Changed) when the peripheral answers
/// it with errors: the connection stands, on the defaults, and an attempt that fails leaves no link.
/// An error answered to the MTU exchange must not fail the attempt and leave its link up, or the next attempt
/// "reconnects" without going on air (the scenario Simulations/explorer-989-failed-setup.yaml runs it too).
@Suite struct LinkSetupErrorTests {
    @Test(arguments: [ATTError.requestNotSupported, .readNotPermitted, .unlikelyError])
    func anErrorAnsweredToTheMTUExchangeKeepsTheDefaultMTU(error: ATTError) async throws {
        // Given a peripheral that answers every request of the next link set-up with an error
        let sim = Simulation(seed: 1, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        peripheral.respond(to: .any, with: error, times: 3)
        let radio = sim.radio

        // When the central connects
        let info = try await sim.run { try await radio.connect(Fixture.sensorID, timeout: .seconds(5)) }

        // Then the link is up with ATT's default MTU of 23 (Core Spec Vol 3, Part F, 3.4.2): one link,
        // still usable
        #expect(info.mtu == 23)
        let links = sim.trace.records.filter { if case .connected = $0.event { true } else { false } }
        #expect(links.count == 1)
        let now = try await sim.run { try await radio.linkInfo(Fixture.sensorID) }
        #expect(now.mtu == 23)
    }

    @Test func anAttemptWhoseSetupOutlastsTheTimeoutSaysSo() async throws {
        // Given a peripheral that answers the next link set-up's MTU exchange 10 s late
        let sim = Simulation(seed: 1, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        peripheral.delayResponses(to: .opcode(.exchangeMTURequest), by: .seconds(10))
        let radio = sim.radio

        // When the central connects with a 2 s timeout
        let error = try await sim.run { () -> AirlinkError? in
            do throws(AirlinkError) {
                _ = try await radio.connect(Fixture.sensorID, timeout: .seconds(2))
                return nil
            } catch {
                return error
            }
        }

        // Then the attempt times out saying the link came up and its setup did not finish in time, not asking
        // whether the peripheral is in range
        #expect(error?.code == .timeout)
        let message = error?.message ?? ""
        #expect(message.contains("the link came up on air, but its setup"), "\(message)")
        #expect(!message.contains("in range"))
    }
}
