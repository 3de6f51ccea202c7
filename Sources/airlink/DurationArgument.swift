import ArgumentParser

/// A duration typed on the command line: `500ms`, `5s`, `1.5s`, `2m`, or a bare number of seconds.
struct DurationArgument: ExpressibleByArgument, CustomStringConvertible {
    let duration: Duration
    let text: String

    init?(argument: String) {
        let trimmed = argument.trimmingCharacters(in: " ")
        let units: [(suffix: String, nanoseconds: Double)] = [
            ("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3_600e9),
        ]
        var number = Substring(trimmed)
        var scale = 1e9
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            number = trimmed.dropLast(unit.suffix.count)
            scale = unit.nanoseconds
            break
        }
        guard let value = Double(number.trimmingCharacters(in: " ")), value.isFinite, value > 0 else { return nil }
        duration = .nanoseconds(Int64(value * scale))
        text = argument
    }

    var description: String { text }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var result = self
        while result.first == set { result = result.dropFirst() }
        while result.last == set { result = result.dropLast() }
        return result
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(Substring(self).trimmingCharacters(in: set))
    }
}
