// swift-tools-version: 6.1
import PackageDescription

/// Airlink's package graph is its architecture: dependencies point down only (Docs/Architecture.md draws it, and
/// `FrontDoorTests` keeps that drawing, this list and the README's layout true to this manifest).
///
/// - `AirlinkCore`: value types, `AirlinkError`, the `Transport` seam, the peripheral spec language and the
///   environment (clock, executor, random source, trace) every layer takes its effects from.
/// - `AirlinkRegistry`: the devices an app has connected to, behind the `DeviceRepository` protocol (JSON file).
/// - `AirlinkRegistrySQLite`: an SQLite `DeviceRepository` (GRDB).
/// - `CDBus`, `CBlueZ`: libdbus-1 and libbluetooth, for AirlinkBlueZ.
/// - `Airlink`: the layers (discovery, connection and reconnection, services, notifications, peripheral role).
/// - `AirlinkSimulation`: the deterministic kernel (`Simulation`) and the virtual radio on it.
/// - `AirlinkBlueZ`: `Transport` on the real Linux stack (BlueZ over D-Bus).
/// - `AirlinkProfiles`: built-in simulated peripherals, each beside its typed client service.
/// - `AirlinkTestKit`: scenarios, golden traces, the explorer, recording and captures, for users' tests.
/// - `AirlinkTransports`: opens a transport from the string a user types (`sim`, `bluez:hci1`).
/// - `AirlinkHCI`: the simulated world behind a standard HCI controller (TCP, Unix socket, pty, /dev/vhci).
/// - `AirlinkTransportContract`: the `Transport` contract as checks a transport's own tests run (Swift Testing).
/// - `airlink`: the command-line tool.
/// - `AirlinkTestSupport`, `AirlinkBlueZTestSupport`, `airlink-registry-writer`: shared by the tests only.
/// - One test target per area: `AirlinkCoreTests`, `AirlinkTests`, `AirlinkSimulationTests`, `AirlinkProfilesTests`,
///   `AirlinkRegistryTests`, `AirlinkBlueZTests`, `AirlinkTransportsTests`, `AirlinkTestKitTests`, `AirlinkCLITests`,
///   `AirlinkHCITests`.
///
/// Layers above the seam never import a transport; the CLI, the test kit and tests choose one.
let package = Package(
    name: "Airlink",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AirlinkCore", targets: ["AirlinkCore"]),
        .library(name: "AirlinkSimulation", targets: ["AirlinkSimulation"]),
        .library(name: "AirlinkProfiles", targets: ["AirlinkProfiles"]),
        .library(name: "Airlink", targets: ["Airlink"]),
        .library(name: "AirlinkRegistry", targets: ["AirlinkRegistry"]),
        .library(name: "AirlinkRegistrySQLite", targets: ["AirlinkRegistrySQLite"]),
        .library(name: "AirlinkBlueZ", targets: ["AirlinkBlueZ"]),
        .library(name: "AirlinkTransports", targets: ["AirlinkTransports"]),
        .executable(name: "airlink", targets: ["airlink"]),
        .library(name: "AirlinkTestKit", targets: ["AirlinkTestKit"]),
        .library(name: "AirlinkHCI", targets: ["AirlinkHCI"]),
        .library(name: "AirlinkTransportContract", targets: ["AirlinkTransportContract"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // AES-CMAC (CryptoExtras) for the GATT Database Hash (Core Spec Vol 3 Part G 7.3), computed by the simulation
        // only, and AES-128 and P-256 for the HCI controller's pairing: the layers, AirlinkCore and AirlinkBlueZ build
        // without it.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // DocC catalogs of the public modules: `swift package generate-documentation` (Scripts/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "AirlinkCore",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "AirlinkSimulation",
            dependencies: [
                "AirlinkCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                // AES-CMAC for the Database Hash its GATT server serves (GATTDatabaseHash+Computing.swift).
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "AirlinkProfiles",
            dependencies: ["AirlinkCore", "Airlink"]
        ),
        .target(
            name: "Airlink",
            dependencies: [
                "AirlinkCore", "AirlinkRegistry",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "AirlinkRegistry",
            dependencies: ["AirlinkCore"]
        ),
        .target(
            name: "AirlinkRegistrySQLite",
            dependencies: [
                "AirlinkRegistry", "AirlinkCore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The BlueZ backend: libdbus-1 for BlueZ's D-Bus API, libbluetooth where D-Bus falls short.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CBlueZ", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        .target(
            name: "AirlinkBlueZ",
            dependencies: [
                "AirlinkCore", "CDBus", "CBlueZ",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Chooses a transport from a string a user types (`sim`, `sim:PATH`, `bluez:hci1`): the CLI and apps use
        // it. It opens every kind itself, the virtual radio included (Docs/adr/0012-transports-open-the-simulation.md).
        .target(
            name: "AirlinkTransports",
            dependencies: [
                "AirlinkCore", "AirlinkBlueZ", "AirlinkSimulation", "AirlinkProfiles", "AirlinkTestKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "airlink",
            dependencies: [
                "AirlinkCore", "AirlinkSimulation", "AirlinkProfiles", "Airlink", "AirlinkBlueZ",
                "AirlinkTransports", "AirlinkRegistry", "AirlinkRegistrySQLite", "AirlinkTestKit", "AirlinkHCI",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Scenarios (YAML) run on the virtual radio, golden traces, reports and captures: for users' own tests.
        .target(
            name: "AirlinkTestKit",
            dependencies: [
                "Airlink", "AirlinkSimulation", "AirlinkProfiles", "AirlinkRegistry", "AirlinkCore",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The virtual world behind a standard HCI controller (H4 over TCP or a Unix socket): Bumble, BlueZ and
        // Zephyr hosts scan, connect and speak ATT to the simulated peripherals (Docs/HCIController.md).
        .target(
            name: "AirlinkHCI",
            dependencies: [
                "AirlinkCore", "AirlinkSimulation",
                // AES-128 (the block function) for LE legacy pairing's c1 and s1, P-256 for LE Secure Connections'
                // key agreement: Core Spec Vol 3 Part H 2.2.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The transport contract as checks any transport's tests can run (Swift Testing): the one suite that runs
        // them over Airlink's own transports is Tests/AirlinkBlueZTests/Contract.
        .target(
            name: "AirlinkTransportContract",
            dependencies: ["AirlinkCore", "AirlinkSimulation", "AirlinkProfiles"]
        ),
        .testTarget(
            name: "AirlinkHCITests",
            dependencies: [
                "AirlinkHCI", "AirlinkCore", "AirlinkSimulation", "AirlinkProfiles", "AirlinkTestKit",
            ]),
        // What the tests and the benchmarks share: the scripted transport, recorders, workloads and
        // fixtures. Not a product: users test their apps with AirlinkTestKit.
        .target(
            name: "AirlinkTestSupport",
            dependencies: [
                "Airlink", "AirlinkSimulation", "AirlinkCore", "AirlinkRegistry", "AirlinkProfiles",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The fake BlueZ's driver (Tests/Fixtures/bluez), shared by the BlueZ and CLI tests; it imports Testing
        // (the suite trait), so it stays out of AirlinkTestSupport, which the benchmarks use.
        // It also holds the BlueZ explorer (the fixture's chaos mode judged by AirlinkTestKit's oracles).
        .target(
            name: "AirlinkBlueZTestSupport",
            dependencies: [
                "AirlinkBlueZ", "AirlinkCore", "Airlink", "AirlinkRegistry", "AirlinkSimulation", "AirlinkTestKit",
                "AirlinkTestSupport",
            ]),
        .testTarget(name: "AirlinkCoreTests", dependencies: ["AirlinkCore"]),
        .testTarget(
            name: "AirlinkTests",
            dependencies: [
                "Airlink", "AirlinkSimulation", "AirlinkProfiles", "AirlinkCore", "AirlinkTestSupport",
                "AirlinkTestKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "AirlinkSimulationTests", dependencies: ["AirlinkSimulation", "AirlinkCore", "AirlinkTestSupport"]),
        .testTarget(
            name: "AirlinkProfilesTests",
            dependencies: ["AirlinkProfiles", "AirlinkSimulation", "AirlinkCore", "Airlink"]),
        // The registry kill test's child process: saves records until it is killed.
        .executableTarget(
            name: "airlink-registry-writer",
            dependencies: ["AirlinkRegistry", "AirlinkRegistrySQLite", "AirlinkTestSupport"],
            path: "Tests/Tools/RegistryWriter"
        ),
        .testTarget(
            name: "AirlinkRegistryTests",
            dependencies: [
                "AirlinkRegistry", "AirlinkRegistrySQLite", "AirlinkCore", "AirlinkTestSupport",
                "airlink-registry-writer",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "AirlinkBlueZTests",
            dependencies: [
                "AirlinkBlueZ", "AirlinkSimulation", "AirlinkCore", "AirlinkProfiles", "Airlink", "CDBus", "CBlueZ",
                "AirlinkTestSupport", "AirlinkBlueZTestSupport", "AirlinkTestKit", "AirlinkRegistry", "AirlinkHCI",
                "AirlinkTransportContract",
            ]),
        .testTarget(
            name: "AirlinkTransportsTests",
            dependencies: [
                "AirlinkTransports", "AirlinkBlueZ", "AirlinkCore", "AirlinkSimulation", "AirlinkBlueZTestSupport",
                "AirlinkProfiles", "AirlinkTestKit", "Airlink",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "AirlinkTestKitTests",
            dependencies: [
                "AirlinkTestKit", "Airlink", "AirlinkSimulation", "AirlinkProfiles", "AirlinkCore",
                "AirlinkTestSupport",
            ],
            // The golden traces its tests compare with, read beside the test files (Docs/Scenarios.md).
            exclude: ["Golden"]),
        // Runs the built `airlink` as a subprocess (the dependency builds it first); the fake BlueZ comes from
        // AirlinkBlueZTestSupport.
        .testTarget(
            name: "AirlinkCLITests",
            dependencies: [
                "airlink", "Airlink", "AirlinkCore", "AirlinkSimulation", "AirlinkProfiles", "AirlinkRegistry",
                "AirlinkBlueZ", "AirlinkTestSupport", "AirlinkBlueZTestSupport", "AirlinkTestKit",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// Benchmarks (package-benchmark) build only when asked for, so that the tests do not pay for them:
//   AIRLINK_BENCHMARKS=1 swift package --scratch-path .build-bench -c release benchmark
if Context.environment["AIRLINK_BENCHMARKS"] == "1" {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    // Each benchmark with the Airlink targets it measures.
    let benchmarks: [(name: String, targets: [Target.Dependency])] = [
        ("KernelBenchmarks", ["AirlinkCore", "AirlinkSimulation", "AirlinkTestSupport"]),
        ("RadioBenchmarks", ["AirlinkCore", "AirlinkSimulation", "AirlinkTestSupport"]),
        ("RegistryBenchmarks", ["AirlinkCore", "AirlinkRegistry", "AirlinkRegistrySQLite"]),
        // Sweeps of a shipped scenario: time per seed and peak memory.
        ("SweepBenchmarks", ["AirlinkTestKit"]),
        // The replay's curve: a recording of 250 to 3,000 services connected to and discovered whole.
        ("ReplayBenchmarks", ["AirlinkTestKit", "AirlinkTestSupport"]),
        // Scale curves: 100 to 100,000 advertisers scanned, 1 to 1,000 sensors notifying at 10 Hz.
        ("ScaleBenchmarks", ["Airlink", "AirlinkCore", "AirlinkSimulation", "AirlinkTestSupport"]),
        // The layers' figures, on the scripted transport of the layers' tests (AirlinkTestSupport).
        (
            "LayersBenchmarks",
            [
                "Airlink", "AirlinkCore", "AirlinkSimulation", "AirlinkTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
    // Runs one layers workload N times for `valgrind --tool=callgrind` (instruction counts per operation).
    package.targets.append(
        .executableTarget(
            name: "LayersProfile", dependencies: ["AirlinkTestSupport"], path: "Benchmarks/LayersProfile"))
    // Runs one scale workload at a size for callgrind (instructions per advertiser, per sensor).
    package.targets.append(
        .executableTarget(
            name: "ScaleProfile", dependencies: ["AirlinkTestSupport"], path: "Benchmarks/ScaleProfile"))
    for (name, targets) in benchmarks {
        package.targets.append(
            .executableTarget(
                name: name,
                dependencies: targets + [
                    .product(name: "Benchmark", package: "benchmark")
                ],
                path: "Benchmarks/\(name)",
                plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
            ))
    }
}
