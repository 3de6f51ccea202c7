import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Foundation
import Testing

/// The capture carries the run's own values (RSSI, connection parameters, disconnection reason),
/// taken from the trace's records, never defaults.
@Suite struct CaptureFromRecordsTests {
    private static let far: DeviceID = "C0:FF:EE:00:00:31"

    /// Scans a peripheral 12 m away for a second, connects with a 75 ms interval, latency 3 and a
    /// 6 s supervision timeout, then the peripheral powers off its link.
    private func run() async throws -> Simulation {
        let sim = Simulation(seed: 7, strict: true, tracing: true)
        let peripheral = try sim.add(
            PeripheralSpec(name: "Far", id: Self.far, position: .metres(12), measuredPower: -50) {
                Advertising(every: .milliseconds(100)) { LocalName("Far") }
                Service(.battery) { Characteristic(.batteryLevel, properties: [.read], value: UInt8(42)) }
            })
        sim.radio.linkParameters = LinkParameters(
            connectionInterval: .milliseconds(75), peripheralLatency: 3, supervisionTimeout: .seconds(6))
        let radio = sim.radio
        try await sim.run {
            try await radio.startScan(ScanFilter(allowDuplicates: true))
            try await sim.clock.sleep(for: .seconds(1))
            await radio.stopScan()
            _ = try await radio.connect(Self.far, timeout: .seconds(5))
            peripheral.dropLink(reason: .remotePowerOff)
            try await sim.clock.sleep(for: .milliseconds(100))
            radio.shutdown()
        }
        return sim
    }

    @Test func theCaptureCarriesTheRunsRSSIAndConnectionParameters() async throws {
        // Given a run whose advertisements were heard at the path-loss model's RSSIs
        let sim = try await run()
        let heard = sim.trace.records.compactMap { record -> Int8? in
            guard case .advertisementHeard(_, Self.far, _, let rssi, _, _) = record.event else { return nil }
            return rssi
        }
        #expect(heard.count >= 5)

        // When its capture is built
        let capture = BTSnoopCapture(records: sim.trace.records)
        let events = Self.hciEvents(in: capture.bytes)

        // Then each LE Advertising Report carries the RSSI the record has, and the connection and
        // disconnection events carry the run's parameters and reason
        let reports = events.filter { $0.first == 0x3E && $0.dropFirst(2).first == 0x02 }
        #expect(reports.map { Int8(bitPattern: $0.last!) } == heard)
        let complete = try #require(events.first { $0.first == 0x3E && $0.dropFirst(2).first == 0x01 })
        let parameters = Array(complete[14..<20])
        #expect(parameters == [60, 0, 3, 0, 0x58, 0x02])  // 60 × 1.25 ms, latency 3, 600 × 10 ms
        let disconnection = try #require(events.first { $0.first == 0x05 })
        #expect(disconnection.last == DisconnectionReason.remotePowerOff.rawValue)
    }

    @Test(.enabled(if: ExternalTool.path("tshark") != nil, "needs tshark (Scripts/bootstrap installs it)"))
    func tsharkReadsTheRunsValues() async throws {
        // Given a run's capture in a file
        let sim = try await run()
        let firstRSSI = sim.trace.records.lazy.compactMap { record -> Int8? in
            guard case .advertisementHeard(_, _, _, let rssi, _, _) = record.event else { return nil }
            return rssi
        }.first
        let path = ExternalTool.temporaryPath("records.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try BinaryFile.write(BTSnoopCapture(records: sim.trace.records).bytes, to: path)

        // When tshark decodes it
        let decoded = try await ExternalTool.run(ExternalTool.path("tshark")!, ["-r", path, "-V"])

        // Then it reads the run's RSSI, interval, latency, timeout and reason
        #expect(decoded.status == 0)
        #expect(decoded.output.contains("RSSI: \(try #require(firstRSSI)) dBm"), "\(decoded.output)")
        #expect(decoded.output.contains("Connection Interval: 60 (75 msec)"))
        #expect(decoded.output.contains("Connection Latency: 3"))
        #expect(decoded.output.contains("Supervision Timeout: 600 (6 sec)"))
        #expect(decoded.output.contains("Remote Device Terminated Connection due to Power Off (0x15)"))
    }

    /// The HCI event packets of a btsnoop file (H4 type 0x04), without the type byte.
    private static func hciEvents(in bytes: [UInt8]) -> [[UInt8]] {
        var events: [[UInt8]] = []
        var offset = 16
        while offset + 24 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let packet = Array(bytes[(offset + 24)..<(offset + 24 + length)])
            if packet.first == 0x04 { events.append(Array(packet.dropFirst())) }
            offset += 24 + length
        }
        return events
    }
}
