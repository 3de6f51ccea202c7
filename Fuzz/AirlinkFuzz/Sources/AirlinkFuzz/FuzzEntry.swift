import Foundation

/// One fuzz target: a decoder of untrusted input and the contract it must keep for any input.
struct FuzzTarget: Sendable {
    /// The name `Scripts/fuzz` and `AIRLINK_FUZZ_TARGET` use, and the corpus directory's name.
    var name: String
    /// Decodes one input and checks the contract; a broken contract calls ``violated(_:_:)``.
    var run: @Sendable ([UInt8]) -> Void
}

/// Every target, in the order `Scripts/fuzz` runs them.
let fuzzTargets: [FuzzTarget] = [
    advertisementTarget, attPDUTarget, attServerTarget, inspectedValueTarget, gattValueTarget,
    valueFormatTarget, scenarioTarget, registryTarget, dbusReplyTarget,
]

/// The target this process runs, from `AIRLINK_FUZZ_TARGET`; an unknown name stops the process with
/// the list of names.
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["AIRLINK_FUZZ_TARGET"] ?? ""
    guard let target = fuzzTargets.first(where: { $0.name == name }) else {
        let names = fuzzTargets.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("AIRLINK_FUZZ_TARGET=\"\(name)\" is not one of: \(names)\n".utf8))
        exit(64)
    }
    return target
}()

/// Stops the process (libFuzzer saves the input as a crash) because a decoder broke its contract.
func violated(_ target: String, _ what: String) -> Never {
    fatalError("\(target): contract violated: \(what)")
}

/// libFuzzer's entry point: one input, handed to the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget.run(bytes)
    return 0
}

/// libFuzzer's driver, which its own `main` calls (compiler-rt's FuzzerInterface.h).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The process's entry point. SwiftPM links an executable on Linux with `main` defined as
/// `<module>_main`, which `-parse-as-library` leaves to us: it hands over to libFuzzer's driver.
@_cdecl("AirlinkFuzz_main")
public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
