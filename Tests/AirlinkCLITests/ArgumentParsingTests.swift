import Airlink
import AirlinkCore
import Foundation
import Testing

@testable import airlink

/// The CLI's own parsers, tested in process (`@testable import` of the executable target).
@Suite struct ArgumentParsingTests {
    @Test func reconnectStrategiesParseToTheLayersStrategies() throws {
        // Given the strategy strings a user types
        // When they are parsed
        let none = try ReconnectArgument.parse("none")
        let linear = try ReconnectArgument.parse("linear:2s,3")
        let linearTimeout = try ReconnectArgument.parse("linear:500ms,4,3s")
        let exponential = try ReconnectArgument.parse("exponential:1s,30s,5")

        // Then each is the layers' strategy with the values written (timeout 5 s unless given)
        #expect(none is NoReconnectionStrategy)
        #expect(
            linear as? LinearReconnectionStrategy
                == LinearReconnectionStrategy(
                    wait: .seconds(2), attempts: 3, timeout: ReconnectArgument.defaultAttemptTimeout))
        #expect(
            linearTimeout as? LinearReconnectionStrategy
                == LinearReconnectionStrategy(wait: .milliseconds(500), attempts: 4, timeout: .seconds(3)))
        let backoff = try #require(exponential as? ExponentialBackoffReconnectionStrategy)
        #expect(backoff.initialDelay == .seconds(1) && backoff.maximumDelay == .seconds(30) && backoff.attempts == 5)
        #expect(backoff.jitter == .full)
    }

    @Test(arguments: [
        "", "linear", "linear:2s", "linear:2s,0", "linear:2s,3,0s", "exponential:1s,30s", "none:1", "fast",
        "linear:1e12s,3", "exponential:1s,1e12s,5", "linear:2s,9223372036854775807", "linear:-2s,3",
    ])
    func badStrategiesSayWhatToType(_ text: String) {
        // Given a string that is not a strategy
        // When it is parsed
        // Then the message names the forms to type
        #expect(throws: (any Error).self) { try ReconnectArgument.parse(text) }
    }

    @Test func formatsRoundTripTheirValues() throws {
        // Given typed values in each format
        let cases: [(ValueFormat, String)] = [
            (.uint8, "90"), (.uint16, "65535"), (.int16, "-2500"), (.int32, "-70000"), (.utf8, "héllo"),
            (.bool, "true"), (.hex, "0x0a0b"),
        ]
        for (format, text) in cases {
            // When a value is turned into bytes and back
            let bytes = try format.bytes(of: text)

            // Then it reads back as written
            #expect(try format.text(of: bytes) == text, "\(format)")
        }
        #expect(try ValueFormat.int16.bytes(of: "2500") == [0xC4, 0x09])  // little-endian
        #expect(Hex.bytes("0A0B") == [0x0A, 0x0B] && Hex.bytes("0x") == [] && Hex.bytes("0xA") == nil)
    }

    @Test func tablesAndValuesEscapeControlCharacters() throws {
        // Given a device name and a text value that would retitle and clear the terminal
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\nEvil"

        // When they are printed as a table row and as a read value
        let table = Output.table(["ID", "NAME"], [["C0:FF:EE:00:00:01", hostile]])
        let value = try ValueReport(
            device: "C0:FF:EE:00:00:01", service: .battery, characteristic: .batteryLevel,
            bytes: Array(hostile.utf8), format: .utf8)

        // Then they hold no control character and stay on their line
        for text in [table, value.text] {
            #expect(!text.contains("\u{1B}"))
            #expect(text.contains("\\u{1B}]0;pwned"))
        }
        #expect(table.split(separator: "\n").count == 2)
        #expect(!value.text.contains("\n"))
    }

    @Test func jsonEscapesTheControlsTheEncoderLeavesRaw() throws {
        // Given a name with a C1 CSI, DEL, a bidi override and ESC
        let name = "a\u{9B}2Jb\u{7F}c\u{202E}d\u{1B}e"

        // When it is printed as JSON
        let json = Output.json(["name": name])

        // Then no character of it can drive a terminal, and it reads back as the same name
        #expect(!json.unicodeScalars.contains { $0.isTerminalControl && $0 != "\n" })
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(decoded["name"] == name)
    }

    @Test func jsonWritesANumberItCannotCarryAsTextAndKeepsTheRestOfTheObject() throws {
        // Given a reading whose values include NaN and the infinities, beside an ordinary one
        let values = ["celsius": 21.5, "nan": Double.nan, "hot": .infinity, "cold": -.infinity]

        // When it is printed as one JSON line
        let line = Output.jsonLine(["values": values])

        // Then the object is all there: the ordinary value as a number, the others as text naming them
        let decoded = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: Any]])
        let printed = try #require(decoded["values"])
        #expect(printed["celsius"] as? Double == 21.5)
        #expect(printed["nan"] as? String == "NaN")
        #expect(printed["hot"] as? String == "Infinity")
        #expect(printed["cold"] as? String == "-Infinity")
    }

    @Test func exploreWritesItsFailuresUnderADirectoryTheRepositoryIgnores() throws {
        // Given explore without --out, and with it
        let byDefault = try ExploreCommand.parse(["--seeds", "1...10"])
        let named = try ExploreCommand.parse(["--seeds", "1...10", "--out", "failures"])

        // Then shrunk failures go under .airlink/, which the repository's .gitignore lists, or where the user says
        #expect(byDefault.out == ".airlink/explore-failures")
        #expect(named.out == "failures")
        let file = #filePath
        let root = String(file[..<file.range(of: "/Tests/")!.lowerBound])
        let ignored = try String(contentsOfFile: root + "/.gitignore", encoding: .utf8).split(separator: "\n")
        #expect(ignored.contains("/.airlink/"))
    }
}
