import Foundation

/// A fresh directory under the system's temporary directory, removed with what it holds when the value goes: a
/// test's files (registries and their lock files) never outlive it. A test keeps it alive until its end with
/// `defer { withExtendedLifetime(directory) {} }` when nothing else uses it after its files are made.
package final class TemporaryDirectory: Sendable {
    /// The directory's path.
    package let path: String

    package init() {
        var template = Array((NSTemporaryDirectory() + "/airlink-test-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed with errno \(errno)")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The path of `name` inside the directory.
    package func file(_ name: String) -> String { path + "/" + name }

    /// The names of the directory's entries, sorted.
    package func entries() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    // try?: a test whose directory is already gone (removed by the test itself) has nothing left to clean.
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
