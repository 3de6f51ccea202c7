import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Foundation
import Testing

@Suite struct CaptureTests {
    @Test(
        .enabled(if: ExternalTool.path("tshark") != nil, "needs tshark (Scripts/bootstrap installs it)"),
        arguments: ["linear-link-loss.yaml", "out-of-range-and-back.yaml", "service-changed.yaml"])
    func tsharkDecodesEveryPacketAndCountsTheTracesATTOperations(_ name: String) async throws {
        // Given a shipped scenario run with its traffic captured
        let runner = ScenarioRunner()
        let result = try await runner.run(try Scenario.load(path: ShippedScenarios.path(name)))
        let capture = result.capture
        let path = ExternalTool.temporaryPath(name + ".btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try BinaryFile.write(capture.bytes, to: path)

        // When tshark decodes it in full
        let decoded = try await ExternalTool.run(ExternalTool.path("tshark")!, ["-r", path, "-V"])

        // Then no packet is malformed, every packet is there, and the ATT PDUs are the trace's
        let attLines = result.trace.records.filter { if case .attPDU = $0.event { true } else { false } }.count
        #expect(decoded.status == 0)
        #expect(!decoded.output.contains("Malformed"))
        #expect(
            decoded.output.components(separatedBy: "\nFrame ").count - 1 + (decoded.output.hasPrefix("Frame ") ? 1 : 0)
                == capture.packetCount)
        #expect(decoded.output.components(separatedBy: "Bluetooth Attribute Protocol").count - 1 == attLines)
        #expect(capture.attPDUCount == attLines)
        if name == "out-of-range-and-back.yaml" {
            #expect(decoded.output.contains("LE Advertising Report"))
            #expect(decoded.output.contains("Disconnect Complete") || decoded.output.contains("Disconnection Complete"))
        }
    }
}
