// swift-tools-version: 6.1
import PackageDescription

/// Airlink's package graph is its architecture: dependencies point down only.
///
/// - `AirlinkCore`: value types, `AirlinkError`, the `Transport` seam and the environment
///   (clock, executor, random source, trace) every layer takes its effects from.
/// - `AirlinkSimulation`: the deterministic kernel (`Simulation`) and, on top of it, the virtual radio.
///
/// Layers above the seam import `AirlinkCore` only; the CLI, the test kit and tests choose a transport.
let package = Package(
    name: "Airlink",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AirlinkCore", targets: ["AirlinkCore"]),
        .library(name: "AirlinkSimulation", targets: ["AirlinkSimulation"]),
        .library(name: "AirlinkProfiles", targets: ["AirlinkProfiles"]),
        .library(name: "Airlink", targets: ["Airlink"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        .target(
            name: "AirlinkCore",
            dependencies: [
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        .target(
            name: "AirlinkSimulation",
            dependencies: [
                "AirlinkCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "AirlinkProfiles",
            dependencies: ["AirlinkCore"]
        ),
        .target(
            name: "Airlink",
            dependencies: [
                "AirlinkCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .testTarget(name: "AirlinkCoreTests", dependencies: ["AirlinkCore"]),
        .testTarget(name: "AirlinkSimulationTests", dependencies: ["AirlinkSimulation", "AirlinkCore"]),
        .testTarget(name: "AirlinkProfilesTests", dependencies: ["AirlinkProfiles", "AirlinkSimulation", "AirlinkCore"]),
        .testTarget(
            name: "AirlinkTests",
            dependencies: [
                "Airlink", "AirlinkSimulation", "AirlinkCore", .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)

// Benchmarks (package-benchmark) build only when asked for, so that the tests do not pay for them:
//   AIRLINK_BENCHMARKS=1 swift package --scratch-path .build-bench -c release benchmark
if Context.environment["AIRLINK_BENCHMARKS"] == "1" {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    for name in ["KernelBenchmarks"] {
        package.targets.append(
            .executableTarget(
                name: name,
                dependencies: [
                    "AirlinkCore", "AirlinkSimulation",
                    .product(name: "Benchmark", package: "benchmark"),
                ],
                path: "Benchmarks/\(name)",
                plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
            ))
    }
    // The layers' figures, on the scripted transport of the layers' tests (symbolic links).
    package.targets.append(
        .executableTarget(
            name: "LayersBenchmarks",
            dependencies: [
                "Airlink", "AirlinkCore", "AirlinkSimulation",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LayersBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ))
}
