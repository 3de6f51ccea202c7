import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Foundation
import Testing

/// A custom peripheral's scan response declared in a scenario: answered to the client's active scans, in the trace
/// and in the btsnoop capture.
@Suite struct ScenarioScanResponseTests {
    /// A sensor that advertises a shortened name and answers scans with its complete name and manufacturer data; it
    /// goes out of range and back, so that the app scans for it (whenAdvertising).
    static let scenario = """
        name: scan-response
        seed: 3
        duration: 30s
        world:
          - name: Sensor
            id: "E0:00:00:00:00:02"
            position: 5
            advertising:
              localName: Sens
              services: ["F110"]
              scanResponse: {localName: "Sensor Kitchen", manufacturerData: {company: 0xFFFF, data: "a1b2"}}
            services:
              - uuid: "F110"
                characteristics:
                  - {uuid: "F111", properties: [read], type: uint8, value: 1}
        timeline:
          - {at: 5s, do: move, device: Sensor, position: 80}
          - {at: 15s, do: move, device: Sensor, position: 5}
        client:
          - device: Sensor
            reconnection: {whenAdvertising: {attempts: 3, timeout: 5s}}

        """

    @Test func aDeclaredScanResponseAnswersActiveScansAndIsInTheTrace() async throws {
        // When the scenario runs
        let result = try await ScenarioRunner().run(try Scenario.parse(Self.scenario, source: "scan-response.yaml"))

        // Then the app's scan heard the advertisement and the scan response with the complete name
        let text = result.trace.text
        #expect(text.contains("scan E0:00:00:00:00:02 \"Sens\" rssi="), "\(text.prefix(3000))")
        #expect(text.contains("scan E0:00:00:00:00:02 scan response \"Sensor Kitchen\" rssi="))
        let responses = result.trace.records.compactMap { record -> [UInt8]? in
            guard case .scanResponseHeard(0, _, _, _, let data) = record.event else { return nil }
            return data
        }
        let response = try #require(responses.first)
        let decoded = try Advertisement(decoding: response)
        #expect(decoded.name == "Sensor Kitchen")
        #expect(decoded.manufacturerData.first?.data == [0xA1, 0xB2])
    }

    @Test(.enabled(if: ExternalTool.path("tshark") != nil, "needs tshark (Scripts/bootstrap installs it)"))
    func theCaptureCarriesTheActiveScanAndItsScanResponses() async throws {
        // Given the scenario run with its traffic captured
        let result = try await ScenarioRunner().run(try Scenario.parse(Self.scenario, source: "scan-response.yaml"))
        let path = ExternalTool.temporaryPath("scan-response.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try BinaryFile.write(result.capture.bytes, to: path)

        // When tshark decodes it in full
        let decoded = try await ExternalTool.run(ExternalTool.path("tshark")!, ["-r", path, "-V"])

        // Then no packet is malformed, the host set up an active scan, and the scan responses are reports of their own
        // (event type SCAN_RSP)
        #expect(decoded.status == 0)
        #expect(!decoded.output.contains("Malformed"), "\(decoded.output.prefix(4000))")
        #expect(decoded.output.contains("LE Set Scan Parameters"))
        #expect(decoded.output.contains("Scan Type: Active"), "\(decoded.output.prefix(4000))")
        #expect(decoded.output.contains("Event Type: Scan Response (0x04)"), "\(decoded.output.prefix(4000))")
        #expect(decoded.output.contains("Sensor Kitchen"))
    }

    @Test func aScanResponseWithAnUnknownKeyIsRefusedNamingTheLine() throws {
        // Given the scenario with a misspelt key in the scan response
        let edited = Self.scenario.replacingOccurrences(
            of: "{localName: \"Sensor Kitchen\",", with: "{localNam: \"x\",")

        // When it is read, then the error names the line and the key
        let error = #expect(throws: AirlinkError.self) { try Scenario.parse(edited, source: "scan-response.yaml") }
        #expect(error?.message.contains("scan-response.yaml:11:") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("localNam") == true, "\(error?.message ?? "")")
    }
}
