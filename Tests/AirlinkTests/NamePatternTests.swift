import Airlink
import AirlinkCore
import Testing

/// Which name patterns are accepted: the ones that match any name in bounded time.
@Suite struct NamePatternTests {
    @Test(arguments: [
        "Tracker.*", "^Thermo", "Thermo(stat)?", "(ab)+", "(?:ab)+", "(?<model>AB)+", "[a-z]+[0-9]*", "a{2}",
        "(ab){3}", "(a+)?", "[(a+)+]", "\\(a+\\)+", "Sensor\\+{2}", "(a|b)", "a*?b", "x{,3}", "(a){1}",
    ])
    func boundedPatternsAreAccepted(_ pattern: String) {
        // Given a pattern whose matching is at most quadratic in the name's length
        // When it is checked
        // Then it is accepted
        #expect(throws: Never.self) { try NamePattern.check(pattern) }
    }

    @Test(arguments: [
        ("(a{2,})+", "quantifier"), ("(a?)*", "quantifier"), ("((ab)+)+", "quantifier"), ("(\\++)+", "quantifier"),
        ("(?:a|b)+", "choice"), ("(x(a|b))*", "choice"), ("(a+){2,5}", "quantifier"), ("a*?b*?c*?", "repetitions"),
        ("(?<n>a*)+", "quantifier"), ("(a|aa)*$", "choice"),
    ])
    func patternsThatCanBacktrackWithoutEndAreRefused(_ pattern: String, _ named: String) {
        // Given a pattern that repeats a group which can match in several ways, or repeats too often
        // When it is checked
        // Then it is an invalidArgument naming what makes it slow
        #expect {
            try NamePattern.check(pattern)
        } throws: { error in
            let error = error as? AirlinkError
            return error?.code == .invalidArgument && error?.message.contains(named) == true
        }
    }
}
