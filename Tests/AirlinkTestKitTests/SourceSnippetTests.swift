import Testing

@testable import AirlinkTestKit

/// The line an error message shows: the whole line when it is short, clipped around the column when it is long,
/// the caret under the column either way.
@Suite struct SourceSnippetTests {
    @Test func aShortLineIsShownWholeWithTheCaretUnderTheColumn() {
        let snippet = SourceSnippet.at(line: 2, column: 7, in: "a: 1\nname: bad\nc: 3\n")
        #expect(snippet == "name: bad\n      ^")
    }

    @Test func aLongLineIsClippedAroundTheColumnWithAnEllipsisOnEachSideCut() {
        // Given a line of 10,000 characters with a mark at column 5,001
        let line = String(repeating: "a", count: 5_000) + "X" + String(repeating: "b", count: 4_999)

        // When its snippet is made
        let snippet = SourceSnippet.at(line: 1, column: 5_001, in: line)

        // Then it holds the width and two ellipses, and the caret points at the X
        let (shown, caret) = (snippet.split(separator: "\n")[0], snippet.split(separator: "\n")[1])
        #expect(shown.unicodeScalars.count == SourceSnippet.width + 2)
        #expect(shown.hasPrefix("…") && shown.hasSuffix("…"))
        let column = caret.count - 1
        #expect(Array(shown.unicodeScalars)[column] == "X")
    }

    @Test func aMarkNearTheEndOfALongLineKeepsTheEndAndCutsOnlyTheStart() {
        let line = String(repeating: "x", count: 1_000) + "!"
        let snippet = SourceSnippet.at(line: 1, column: 1_001, in: line)
        let (shown, caret) = (snippet.split(separator: "\n")[0], snippet.split(separator: "\n")[1])
        #expect(shown.hasPrefix("…") && shown.hasSuffix("!"))
        #expect(Array(shown.unicodeScalars)[caret.count - 1] == "!")
    }

    @Test func aLinePastTheEndIsEmptyAndALineBreakOfCRLFIsLeftOut() {
        #expect(SourceSnippet.at(line: 9, column: 1, in: "a: 1\n") == "\n^")
        #expect(SourceSnippet.at(line: 1, column: 4, in: "a: 1\r\nb: 2") == "a: 1\n   ^")
    }

    @Test func aCharacterOffsetIsFoundAsLineAndColumnInScalars() {
        // "é" is one character and one scalar here; the offset counts characters, as Yams gives it
        let location = SourceSnippet.location(ofCharacterOffset: 7, in: "ab\ncdé\nfg")
        #expect(location == (line: 3, column: 1))
        #expect(SourceSnippet.location(ofCharacterOffset: 0, in: "") == (line: 1, column: 1))
    }
}
