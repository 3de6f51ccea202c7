import AirlinkCore
import AirlinkRegistry
import AirlinkTestSupport
import Foundation
import Testing

/// The registry file's text depends only on the records: the same devices, the same bytes.
@Suite struct RegistryFileTextTests {
    @Test func keysAreWrittenInOneOrderWhateverTheProcess() async throws {
        // Given a registry file with one device (found by Scripts/fuzz registry: an empty registry saved
        // twice gave two texts, because JSONEncoder's key order is not fixed on Linux)
        let directory = TemporaryDirectory()
        let repository = JSONFileDeviceRepository(path: directory.file("devices.json"))
        try await repository.save(Fixtures.record(1))

        // When its text is read
        let text = try String(contentsOfFile: directory.file("devices.json"), encoding: .utf8)

        // Then the keys of the file and of the device are in sorted order, so the text is the same on
        // every save of the same records and a diff of two files shows only what changed
        #expect(
            text == """
                {
                  "devices" : [
                    {
                      "connectionCount" : 1,
                      "databaseHash" : "015a",
                      "firstConnected" : 1767225600,
                      "id" : "C0:FF:EE:00:00:01",
                      "lastConnected" : 1767225601,
                      "name" : "Sensor 1",
                      "services" : [
                        "180F",
                        "180A"
                      ]
                    }
                  ],
                  "format" : "airlink-device-registry",
                  "schemaVersion" : 1
                }

                """)
    }
}
