import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Testing

@testable import airlink

/// What `--json` advises for a connect that timed out: range and advertising only when no link came up.
@Suite struct ConnectTimeoutAdviceTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// The error of a 2 s connect to a thermostat that `prepare` set up.
    static func timedOutConnect(_ prepare: (SimulatedPeripheral) -> Void) async throws -> AirlinkError? {
        let sim = Simulation(seed: 1, strict: true)
        prepare(try sim.add(.thermostat()))
        let radio = sim.radio
        return try await sim.run { () -> AirlinkError? in
            do throws(AirlinkError) {
                _ = try await radio.connect(Self.thermostat, timeout: .seconds(2))
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func aLinkThatCameUpButDidNotFinishItsSetUpIsNotSentToCheckTheRange() async throws {
        // Given a connect whose link came up but whose MTU exchange is answered 10 s late
        let error = try #require(
            await Self.timedOutConnect { $0.delayResponses(to: .opcode(.exchangeMTURequest), by: .seconds(10)) })

        // When --json reports it
        let report = JSONErrorReport(error, message: nil, status: ExitStatus.failure)

        // Then the advice says the set-up did not finish and to raise the connect timeout, not to check the range
        #expect(report.error.code == "timeout")
        #expect(!report.error.advice.contains("in range"), "\(report.error.advice)")
        #expect(report.error.advice.contains("--connect-timeout"), "\(report.error.advice)")
    }

    @Test func aLinkThatNeverCameUpIsSentToCheckTheRange() async throws {
        // Given a connect to a thermostat out of range
        let error = try #require(await Self.timedOutConnect { $0.moveOutOfRange() })

        // When --json reports it
        let report = JSONErrorReport(error, message: nil, status: ExitStatus.failure)

        // Then the advice is to check the range and advertising
        #expect(report.error.code == "timeout")
        #expect(report.error.advice.contains("in range and advertising"), "\(report.error.advice)")
    }
}
