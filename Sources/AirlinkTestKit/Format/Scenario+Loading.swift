import AirlinkCore
import Foundation
import Yams

extension Scenario {
    /// The largest scenario file read, in bytes (1 MiB): scenarios are written by hand.
    public static let maximumFileSize = 1 << 20

    /// Loads a scenario file beside the calling file: a relative `path` is taken from the directory of the file that
    /// calls, as `SimulationTrace.assertMatches(_:filePath:)` takes a golden trace's, so a test
    /// names its scenario and its golden trace from one base, wherever `swift test` runs:
    ///
    /// ```swift
    /// let scenario = try Scenario.load("Scenarios/link-loss.yaml")  // Tests/MyAppTests/Scenarios/link-loss.yaml
    /// ```
    ///
    /// - Parameters:
    ///   - path: the YAML file, relative to the calling file's directory, or absolute.
    ///   - filePath: the calling file (filled in by the compiler).
    /// - Throws: what ``load(path:)`` throws.
    public static func load(_ path: String, filePath: String = #filePath) throws(AirlinkError) -> Scenario {
        try load(path: resolve(path, besideFile: filePath))
    }

    /// `path` taken from the directory of the file at `filePath`, unless it is absolute.
    static func resolve(_ path: String, besideFile filePath: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let directory = filePath.lastIndex(of: "/").map { String(filePath[..<$0]) } ?? "."
        return directory + "/" + path
    }

    /// Loads a scenario file at a path from the current directory (as a command-line tool takes it); a test loads
    /// one beside its own file with ``load(_:filePath:)``.
    ///
    /// - Parameter path: the YAML file.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` with `path:line:column`, what was expected
    ///   and the offending line (also for text that is not UTF-8); ``/AirlinkCore/AirlinkError/Code/invalidArgument``
    ///   when there is no file at the path, it is a directory, cannot be read or is too large.
    public static func load(path: String) throws(AirlinkError) -> Scenario {
        var scenario = try parse(try text(at: path, kind: "scenario"), source: path)
        if scenario.name == nil {
            scenario.name = String(path.split(separator: "/").last ?? Substring(path)).replacingOccurrences(
                of: ".yaml", with: "")
        }
        return scenario
    }

    /// The file's text, with a message for each way it cannot be had.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - kind: what the file is, for messages (`scenario`, `recording`).
    ///   - maximumSize: the most bytes read.
    static func text(at path: String, kind: String, maximumSize: Int = maximumFileSize) throws(AirlinkError)
        -> String
    {
        let shown = path.escapingControlCharacters()
        let advice = kind == "scenario" ? "such as Simulations/x.yaml" : "such as Simulations/devices/x.yaml"
        guard let bytes = try InputFile.read(path, kind: kind, maximumSize: maximumSize, advice: advice) else {
            let examples = kind == "scenario" ? "Simulations/*.yaml" : "Simulations/devices/*.yaml"
            throw AirlinkError(
                .invalidArgument, "no \(kind) file at \(shown): check the path (the examples are \(examples))")
        }
        let data = bytes
        guard let text = String(validating: data, as: UTF8.self) else {
            let (line, column) = invalidUTF8Location(data)
            throw AirlinkError(
                .invalidSpecification,
                "\(shown):\(line):\(column): not UTF-8 text; save the \(kind) as UTF-8")
        }
        return text
    }

    /// The line and column (both from 1, the column in bytes) of the first byte that is not UTF-8.
    private static func invalidUTF8Location(_ bytes: [UInt8]) -> (Int, Int) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var low = 0
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) { low += scalar.count }
        let prefix = bytes[..<low]
        let line = prefix.filter { $0 == 0x0A }.count + 1
        let column = low - (prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        return (line, column)
    }

    /// Parses a scenario from YAML text.
    ///
    /// The text is composed to a YAML node tree first, so that a decoding error's coding path can be
    /// mapped back to the line and column of the node it concerns.
    ///
    /// - Parameters:
    ///   - yaml: the scenario.
    ///   - source: the name used in error messages (a path).
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` naming `source:line:column` and what was
    ///   expected.
    public static func parse(_ yaml: String, source: String = "scenario") throws(AirlinkError) -> Scenario {
        let directory = source.contains("/") ? String(source[..<source.lastIndex(of: "/")!]) : "."
        return try decodeYAML(
            Scenario.self, yaml, source: source, whenEmpty: "a scenario needs at least `duration:`",
            userInfo: [ScenarioPeripheral.directoryKey: directory])
    }

    /// Decodes YAML text as `type`, through a composed node tree so that a `DecodingError` names its line.
    ///
    /// - Parameters:
    ///   - type: what the text holds.
    ///   - yaml: the text.
    ///   - source: the name used in error messages (a path).
    ///   - whenEmpty: what an empty file lacks, for its message.
    ///   - userInfo: what the decoders may need (the directory `recorded:` paths are relative to).
    static func decodeYAML<Value: Decodable>(
        _ type: Value.Type, _ yaml: String, source: String, whenEmpty: String,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) throws(AirlinkError) -> Value {
        let node: Node
        do {
            guard let composed = try Yams.compose(yaml: yaml) else {
                throw AirlinkError(.invalidSpecification, "\(source): the file is empty; \(whenEmpty)")
            }
            node = composed
        } catch let error as AirlinkError {
            throw error
        } catch let error as YamlError {
            throw AirlinkError(.invalidSpecification, Self.describe(error, source: source, yaml: yaml))
        } catch {
            throw AirlinkError(.invalidSpecification, "\(source): not valid YAML: \(error)")
        }
        do {
            return try YAMLDecoder().decode(Value.self, from: node, userInfo: userInfo)
        } catch let error as DecodingError {
            throw ScenarioDecodingFailure(error: error, root: node, yaml: yaml, source: source).airlinkError
        } catch {
            throw AirlinkError(.invalidSpecification, "\(source): \(error)")
        }
    }
}

extension Scenario {
    /// What a YAML parser's error says, located: `source:line:column: not valid YAML:`, the fault, and the line
    /// clipped around the column (``SourceSnippet``), so that the message stays short whatever the file holds
    /// (Yams's own text quotes a whole line, or the whole document for a key written twice).
    static func describe(_ error: YamlError, source: String, yaml: String) -> String {
        func located(_ line: Int, _ column: Int, _ problem: String) -> String {
            "\(source):\(line):\(column): not valid YAML: \(problem)\n"
                + SourceSnippet.at(line: line, column: column, in: yaml)
        }
        func fault(_ context: YamlError.Context?, _ problem: String) -> String {
            context.map { "\($0.text) (line \($0.mark.line)): \(problem)" } ?? problem
        }
        switch error {
        case .duplicatedKeysInMapping(let keys, let context):
            let named = keys.map { "`\($0)`" }.joined(separator: ", ")
            return located(
                context.mark.line, context.mark.column,
                "\(named) written more than once in one mapping (first here); keep one")
        case .reader(let problem, let offset?, _, _):
            let (line, column) = SourceSnippet.location(ofCharacterOffset: offset, in: yaml)
            return located(line, column, problem)
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            // libyaml names its own API for this limit; the reader of the message can only nest less.
            let limit = "Maximum nesting level reached, set with yaml_set_max_nest_level()"
            let problem = problem.replacingOccurrences(of: limit, with: "nested deeper than YAML files may be")
            return located(mark.line, mark.column, fault(context, problem))
        default:
            return "\(source): not valid YAML: \(error)"
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
        if let mark { text += "\n" + SourceSnippet.at(mark, in: yaml) }
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
