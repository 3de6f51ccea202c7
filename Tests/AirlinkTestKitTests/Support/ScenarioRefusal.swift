import AirlinkCore
import AirlinkTestKit
import Testing

/// Expects `yaml` to be refused when parsed, with an `invalidSpecification` naming `location` (`scenario:9:`)
/// and saying `expected`.
func expectRefusal(
    _ yaml: String, at location: String, saying expected: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(sourceLocation: sourceLocation) {
        _ = try Scenario.parse(yaml)
    } throws: { error in
        guard let error = error as? AirlinkError else { return false }
        return error.code == .invalidSpecification && error.message.contains(location)
            && error.message.contains(expected)
    }
}
