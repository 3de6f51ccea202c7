// Swift 6.3.1: the compiler crashes (signal 11 in SILGen) on `catch let error as E where …` around a call
// that already throws(E), when that clause is the only one (the do statement rethrows the rest). Airlink's
// workaround: match the code inside a plain `catch` (Docs/Guide.md, "Errors"). Upstream:
// https://github.com/swiftlang/swift/issues/89431 ("SILGen crash on redundant typed catch inside typed-throws
// function", closed as fixed after 6.3.2). Run: bash Scripts/compiler-repros/run
struct Failure: Error { enum Code { case timeout, other }; var code: Code; var message: String }

func operation(_ fail: Bool) async throws(Failure) -> Int {
    if fail { throw Failure(code: .timeout, message: "no answer") }
    return 1
}

func caller() async throws {
    do { _ = try await operation(true) }
    catch let error as Failure where error.code == .timeout {
        print("timed out: \(error.message)")
    }
}

@main enum Main {
    static func main() async throws { try await caller() }
}
