import AirlinkTestKit
import AirlinkTestSupport
import Testing

/// The replay workload the benchmarks measure does what they say it does, at a size the suite runs quickly.
@Suite struct ReplayWorkloadTests {
    @Test func aReplayOfTwoHundredServicesIsDiscoveredWholeAndCachedInTheRegistry() async throws {
        // Given a recording of 200 services, replayed
        let recording = try DeviceRecording.parse(ReplayWorkloads.recording(services: 200), source: "big.yaml")
        let directory = TemporaryDirectory()

        // When the workload connects and discovers it with a registry
        let (discovered, cached) = try await ReplayWorkloads.connectAndDiscover(
            try recording.peripheralSpec(), registryPath: directory.file("registry.json"))

        // Then every service is discovered, GAP and GATT's among them, and the registry caches them all
        #expect(discovered == 202)
        #expect(cached == 202)
    }
}
