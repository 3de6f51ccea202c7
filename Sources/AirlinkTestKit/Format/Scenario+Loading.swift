import AirlinkCore
import Foundation
import Yams

extension Scenario {
    /// Loads a scenario file.
    ///
    /// - Parameter path: the YAML file.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` with `path:line:column`, what was expected
    ///   and the offending line; ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when the file cannot be read.
    public static func load(path: String) throws(AirlinkError) -> Scenario {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw AirlinkError(.invalidArgument, "cannot read the scenario \(path): \(error); check the path")
        }
        var scenario = try parse(text, source: path)
        if scenario.name == nil {
            scenario.name = String(path.split(separator: "/").last ?? Substring(path)).replacingOccurrences(
                of: ".yaml", with: "")
        }
        return scenario
    }

    /// Parses a scenario from YAML text.
    ///
    /// The text is composed to a YAML node tree first, so that a decoding error's coding path can be
    /// mapped back to the line and column of the node it concerns.
    ///
    /// - Parameters:
    ///   - yaml: the scenario.
    ///   - source: the name used in error messages (a path).
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` naming `source:line:column` and what was expected.
    public static func parse(_ yaml: String, source: String = "scenario") throws(AirlinkError) -> Scenario {
        let node: Node
        do {
            guard let composed = try Yams.compose(yaml: yaml) else {
                throw AirlinkError(
                    .invalidSpecification, "\(source): the file is empty; a scenario needs at least `duration:`")
            }
            node = composed
        } catch let error as AirlinkError {
            throw error
        } catch let error as YamlError {
            throw AirlinkError(.invalidSpecification, "\(source): not valid YAML: \(error)")
        } catch {
            throw AirlinkError(.invalidSpecification, "\(source): not valid YAML: \(error)")
        }
        do {
            return try YAMLDecoder().decode(Scenario.self, from: node)
        } catch let error as DecodingError {
            throw ScenarioDecodingFailure(error: error, root: node, yaml: yaml, source: source).airlinkError
        } catch {
            throw AirlinkError(.invalidSpecification, "\(source): \(error)")
        }
    }
}

/// A decoding error located in the YAML: the coding path followed through the node tree to a mark.
struct ScenarioDecodingFailure {
    let error: DecodingError
    let root: Node
    let yaml: String
    let source: String

    var airlinkError: AirlinkError {
        let (path, message) = describe()
        let (node, exact) = Self.locate(path, in: root)
        let mark = node.mark
        let location = mark.map { "\(source):\($0.line):\($0.column)" } ?? source
        let dotted =
            path.isEmpty ? "the top level" : path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        var text = "\(location): \(message) (at \(dotted.hasPrefix(".") ? String(dotted.dropFirst()) : dotted))"
        if !exact { text += "; the nearest node is shown" }
        if let mark { text += "\n" + mark.snippet(from: yaml) }
        return AirlinkError(.invalidSpecification, text)
    }

    private func describe() -> ([any CodingKey], String) {
        switch error {
        case .keyNotFound(let key, let context):
            let detail =
                context.debugDescription.hasPrefix("No value associated") ? "" : ": \(context.debugDescription)"
            return (context.codingPath, "missing `\(key.stringValue)`\(detail)")
        case .typeMismatch(let type, let context):
            return (context.codingPath, "expected \(Self.describe(type)): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return (context.codingPath, "expected \(Self.describe(type)), found nothing")
        case .dataCorrupted(let context):
            return (context.codingPath, context.debugDescription)
        @unknown default:
            return ([], "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is UInt64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type: "text"
        default:
            "\(type)".hasPrefix("Array") ? "a list" : "\(type)".hasPrefix("Dictionary") ? "a mapping" : "\(type)"
        }
    }

    /// Follows a coding path through the tree; returns the deepest node reached and whether the whole path was.
    static func locate(_ path: [any CodingKey], in root: Node) -> (Node, Bool) {
        var node = root
        for key in path {
            if let index = key.intValue, let sequence = node.sequence {
                guard index < sequence.count else { return (node, false) }
                node = sequence[index]
            } else if let mapping = node.mapping {
                guard let pair = mapping.first(where: { $0.key.string == key.stringValue }) else {
                    return (node, false)
                }
                node = pair.value
            } else {
                return (node, false)
            }
        }
        return (node, true)
    }
}
