import Foundation

/// A fresh directory under the system's temporary directory, removed when the value goes.
final class TemporaryDirectory: Sendable {
    /// The directory's path.
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "/airlink-registry-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed with errno \(errno)")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// The names of the directory's entries, sorted.
    func entries() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
