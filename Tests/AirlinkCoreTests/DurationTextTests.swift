import AirlinkCore
import Testing

/// The one parser of duration text: every unit, and a typed error for each kind of bad text.
@Suite struct DurationTextTests {
    @Test(arguments: [
        ("250ms", Duration.milliseconds(250)), ("2s", .seconds(2)), ("1.5s", .milliseconds(1_500)),
        ("3m", .seconds(180)), ("3min", .seconds(180)), ("1h", .seconds(3_600)), ("500us", .microseconds(500)),
        ("500µs", .microseconds(500)), ("10ns", .nanoseconds(10)), ("2", .seconds(2)), (" 5 s ", .seconds(5)),
        ("0s", .zero), ("8784h", DurationText.maximum),
    ])
    func everyFormReadsAsWritten(_ text: String, _ expected: Duration) throws {
        // Given a duration as people write it
        // When it is parsed
        // Then it is the duration meant
        #expect(try DurationText.parse(text) == expected)
    }

    @Test(arguments: [
        ("1e12s", "longer than the longest duration accepted, 366 days"),
        ("1e300", "longer than"), ("8785h", "longer than"), ("1000000h", "longer than"),
        ("-5s", "is negative"), ("nan", "is not a duration"), ("inf", "is not a duration"),
        ("infs", "is not a duration"), ("", "is not a duration"), ("5 parsecs", "is not a duration"),
        ("s", "is not a duration"), ("1..2s", "is not a duration"),
    ])
    func badTextIsATypedErrorNamingIt(_ text: String, _ message: String) {
        // Given text that is not a usable duration
        // When it is parsed
        // Then the error is invalidArgument, quoting the text and saying what is wrong (never a trap)
        #expect {
            try DurationText.parse(text)
        } throws: { error in
            let error = error as? AirlinkError
            return error?.code == .invalidArgument && error?.message.contains(message) == true
                && error?.message.contains("\"\(text)\"") == true
        }
    }

    @Test func zeroIsRefusedWhenAPositiveDurationIsNeeded() {
        // Given zero and a duration that rounds to zero nanoseconds
        // When they are parsed as positive durations
        // Then both are refused as not positive
        for text in ["0s", "1e-12s"] {
            #expect(throws: AirlinkError.self) { try DurationText.parse(text, positive: true) }
        }
        #expect(throws: Never.self) { try DurationText.parse("1ns", positive: true) }
    }
}

/// Text from outside printed safely: control characters as escapes.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreEscapedAndOtherTextKept() {
        // Given a name with an OSC title sequence, a clear-screen, a newline, a tab, a bidi override and accents
        let name = "\u{1B}]0;pwned\u{07}\u{1B}[2Jcafé\n\tx\u{202E}y\u{9B}"

        // When it is escaped
        let escaped = name.escapingControlCharacters()

        // Then no control character is left, and the printable text is as it was
        #expect(escaped == "\\u{1B}]0;pwned\\u{7}\\u{1B}[2Jcafé\\n\\tx\\u{202E}y\\u{9B}")
        #expect(!escaped.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(
            "line one\nline two\u{1B}".escapingControlCharacters(keepingNewlines: true) == "line one\nline two\\u{1B}")
    }
}
