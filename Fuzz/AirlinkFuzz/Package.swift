// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// SwiftPM names a package depended on by path after its directory: Airlink's is two directories up.
let airlink = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

/// libFuzzer targets for Airlink's decoders of untrusted bytes and text (Docs/DeterministicCI.md, "Fuzzing").
///
/// A package of its own, depending on Airlink by path, so that the main build and its tests never need
/// libFuzzer: `Scripts/fuzz` builds it with `-sanitize=fuzzer,address -parse-as-library`. One executable
/// holds every target (one link instead of nine); `AIRLINK_FUZZ_TARGET` chooses the one a run exercises.
/// It is built in debug, where SwiftPM compiles Airlink with testing enabled, for `@testable import`
/// of the decoders that are not public (the registry document, the D-Bus value decoder).
let package = Package(
    name: "AirlinkFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "AirlinkFuzz",
            dependencies: [
                .product(name: "AirlinkCore", package: airlink),
                .product(name: "AirlinkSimulation", package: airlink),
                .product(name: "AirlinkProfiles", package: airlink),
                .product(name: "Airlink", package: airlink),
                .product(name: "AirlinkRegistry", package: airlink),
                .product(name: "AirlinkBlueZ", package: airlink),
                .product(name: "AirlinkTestKit", package: airlink),
            ]
        )
    ]
)
