import AirlinkCore
import AirlinkRegistry
import AirlinkTestSupport
import Foundation
import Testing

/// Registry files a user, a crash or another program could leave: each is refused with a typed
/// error naming the field, its bytes kept whole beside it, or read with a documented sanitization.
@Suite struct BadRegistryFileTests {
    /// What reading a bad file must do.
    enum Outcome: Sendable {
        /// Refused with this code and a message holding this fragment.
        case refused(AirlinkError.Code, String)
        /// Read, the one record's name sanitized to this.
        case sanitizedName(String)
    }

    /// One bad file.
    struct Input: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let bytes: [UInt8]
        let outcome: Outcome

        init(_ description: String, _ text: String, _ outcome: Outcome) {
            self.init(description, Array(text.utf8), outcome)
        }

        init(_ description: String, _ bytes: [UInt8], _ outcome: Outcome) {
            testDescription = description
            self.bytes = bytes
            self.outcome = outcome
        }
    }

    /// A good record of device `C0:FF:EE:00:00:0<index>` with `fields` replaced or added.
    static func device(_ index: Int = 1, _ fields: [String: String] = [:]) -> String {
        var all: [(String, String)] = [
            ("id", "\"C0:FF:EE:00:00:0\(index)\""), ("name", "\"Sensor\""), ("services", "[\"180F\"]"),
            ("firstConnected", "1767225600"), ("lastConnected", "1767225601"), ("connectionCount", "3"),
        ]
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            if let index = all.firstIndex(where: { $0.0 == key }) {
                all[index].1 = value
            } else {
                all.append((key, value))
            }
        }
        return "{" + all.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// A registry file holding `devices`: a good record first, so that a refusal must keep it.
    static func file(_ devices: String...) -> String {
        #"{"format": "airlink-device-registry", "schemaVersion": 1, "devices": ["#
            + ([device(9)] + devices).joined(separator: ", ") + "]}"
    }

    static let inputs: [Input] = [
        Input(
            "lastConnected 1e308", file(device(1, ["lastConnected": "1e308"])),
            .refused(.corruptStore, "devices[1]: lastConnected 1e+308 is not a time between 1970 and 9999")),
        Input(
            "firstConnected 1e308", file(device(1, ["firstConnected": "1e308", "lastConnected": "1e308"])),
            .refused(.corruptStore, "firstConnected 1e+308")),
        Input(
            "negative time", file(device(1, ["firstConnected": "-1"])), .refused(.corruptStore, "firstConnected -1.0")),
        Input(
            "year 10000", file(device(1, ["lastConnected": "253402300800"])),
            .refused(.corruptStore, "lastConnected 253402300800.0")),
        Input(
            "time 1e400", file(device(1, ["lastConnected": "1e400"])),
            .refused(.corruptStore, "Number 1e400 is not representable")),
        Input(
            "time as text", file(device(1, ["lastConnected": "\"yesterday\""])),
            .refused(.corruptStore, "devices[1].lastConnected")),
        Input(
            "time null", file(device(1, ["firstConnected": "null"])),
            .refused(.corruptStore, "devices[1].firstConnected")),
        Input("NaN literal", file(device(1, ["lastConnected": "NaN"])), .refused(.corruptStore, "not a JSON object")),
        Input(
            "first after last", file(device(1, ["firstConnected": "1767225700"])),
            .refused(.corruptStore, "firstConnected 1767225700.0 is after lastConnected")),
        Input(
            "count 0", file(device(1, ["connectionCount": "0"])),
            .refused(
                .corruptStore,
                "devices[1].connectionCount: 0.0 is not a whole number from 1 to 9007199254740991")),
        Input(
            "count negative", file(device(1, ["connectionCount": "-5"])),
            .refused(.corruptStore, "devices[1].connectionCount: -5.0 is not a whole number")),
        Input(
            "count 2^60", file(device(1, ["connectionCount": "1152921504606846976"])),
            .refused(.corruptStore, "devices[1].connectionCount: 1.152921504606847e+18 is not a whole number")),
        Input(
            "count 1e20", file(device(1, ["connectionCount": "1e20"])),
            .refused(.corruptStore, "devices[1].connectionCount: 1e+20 is not")),
        Input(
            "count 2.5", file(device(1, ["connectionCount": "2.5"])),
            .refused(.corruptStore, "devices[1].connectionCount: 2.5 is not")),
        Input(
            "reserved random address", file(device(1, ["id": "\"80:00:00:00:00:01/random\""])),
            .refused(.corruptStore, "two top bits, 10, are reserved")),
        Input(
            "unknown address type", file(device(1, ["id": "\"C0:FF:EE:00:00:01/static\""])),
            .refused(.corruptStore, "devices[1].id")),
        Input(
            "opaque id with newline", file(device(1, ["id": #""id:a\nb""#])),
            .refused(.corruptStore, "a space or control character")),
        Input(
            "service not a UUID", file(device(1, ["services": "[\"battery!\"]"])),
            .refused(.corruptStore, "devices[1].services")),
        Input(
            "hash of 65 bytes", file(device(1, ["databaseHash": "\"" + String(repeating: "ab", count: 65) + "\""])),
            .refused(.corruptStore, "databaseHash takes 1 to 64 bytes")),
        Input(
            "cached service ending before it starts",
            file(
                device(
                    1, ["database": #"{"services": [{"uuid": "180F", "start": 5, "end":3, "characteristics":[]}]}"#])),
            .refused(.corruptStore, "devices[1].database.services[0].end: the end 0x0003 is before the start 0x0005")),
        Input(
            "cached handle 0",
            file(
                device(
                    1, ["database": #"{"services": [{"uuid": "180F", "start": 0, "end":3, "characteristics":[]}]}"#])),
            .refused(.corruptStore, "devices[1].database.services[0].start: handle 0 is reserved")),
        Input(
            "cached characteristic outside its service",
            file(
                device(
                    1,
                    [
                        "database":
                            #"{"services": [{"uuid": "180F", "start": 1, "end": 3, "characteristics": "#
                            + #"[{"uuid": "2A19", "declaration": 4, "value": 5, "properties": 2}]}]}"#
                    ])),
            .refused(.corruptStore, "database.services[0].characteristics[0] has declaration 4 and value 5")),
        Input(
            "cached database without services", file(device(1, ["database": #"{"complete": true}"#])),
            .refused(.corruptStore, "devices[1].database.services is missing")),
        Input("name not text", file(device(1, ["name": "42"])), .refused(.corruptStore, "devices[1].name")),
        Input(
            "name of invalid UTF-8",
            Array(file(device(1, ["name": "\"AB\""])).utf8).map { $0 == UInt8(ascii: "A") ? 0xFF : $0 },
            .refused(.corruptStore, "Invalid UTF-8 sequence")),
        Input(
            "devices not a list", #"{"format": "airlink-device-registry", "schemaVersion": 1, "devices": {}}"#,
            .refused(.corruptStore, "devices")),
        Input(
            "schemaVersion as text", #"{"format": "airlink-device-registry", "schemaVersion": "1", "devices": []}"#,
            .refused(.corruptStore, "not a JSON object")),
        Input(
            "schemaVersion 0", #"{"format": "airlink-device-registry", "schemaVersion": 0, "devices": []}"#,
            .refused(.corruptStore, #""schemaVersion" is missing or below 1"#)),
        Input(
            "schemaVersion 2", #"{"format": "airlink-device-registry", "schemaVersion": 2, "devices": []}"#,
            .refused(.unsupportedStoreVersion, "schema version 2")),
        Input("top level a list", "[]", .refused(.corruptStore, "not a JSON object")),
        Input(
            "name with escape sequence", file(device(1, ["name": #""\u001b[31mHot\u0007""#])),
            .sanitizedName("\u{FFFD}[31mHot\u{FFFD}")),
        Input(
            "name of 300 bytes", file(device(1, ["name": "\"" + String(repeating: "é", count: 150) + "\""])),
            .sanitizedName(String(repeating: "é", count: 124))),
    ]

    @Test(arguments: inputs)
    func badFileIsRefusedWithTheFieldOrSanitized(input: Input) async throws {
        // Given a registry file with one bad record after a good one (or a bad header)
        let directory = TemporaryDirectory()
        let path = directory.file("devices.json")
        try Data(input.bytes).write(to: URL(fileURLWithPath: path))
        let repository = JSONFileDeviceRepository(path: path)

        // When the registry is read
        let result = await Result { () async throws(AirlinkError) in try await repository.all() }

        switch input.outcome {
        case .refused(let code, let fragment):
            // Then it is refused with a typed error naming the problem and the file
            guard case .failure(let error) = result else {
                Issue.record("read \(try result.get()) from a bad file")
                return
            }
            #expect(error.code == code, "\(error)")
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(error.context == path)
            // And no record is lost: the file's bytes are kept whole, aside or in place
            let kept = code == .corruptStore ? path + ".corrupt-1" : path
            #expect(error.message.contains(code == .corruptStore ? "moved to \(kept)" : path))
            #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == Data(input.bytes))
        case .sanitizedName(let name):
            // Then both records are read, the bad name sanitized as documented
            let records = try result.get()
            #expect(records.count == 2)
            let record = try #require(records.first { $0.id == "C0:FF:EE:00:00:01" })
            #expect(record.name == name)
            #expect(record.name.map { $0.utf8.count <= ConnectionRecord.maximumNameLength } == true)
        }
    }

    @Test func noCaseOfTheTableIsMissing() {
        // Given the table above; Then it holds at least the 15 inputs the bad-input suite counts on
        #expect(Self.inputs.count >= 15)
        #expect(Set(Self.inputs.map(\.testDescription)).count == Self.inputs.count)
    }
}

extension Result where Failure == AirlinkError {
    /// The result of an async body that throws ``AirlinkError``.
    init(_ body: () async throws(AirlinkError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
