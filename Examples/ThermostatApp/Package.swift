// swift-tools-version: 6.1
import PackageDescription

/// An app that uses Airlink as any package would: by its public products only. Outside this repository, replace
/// the path dependency with `.package(url: "https://…/Airlink", from: "…")`.
let package = Package(
    name: "ThermostatApp",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ThermostatKit", targets: ["ThermostatKit"]),
        .executable(name: "thermostat-app", targets: ["thermostat-app"]),
    ],
    dependencies: [
        // A path dependency is named after its folder (a clone may be `main`, `airlink`, ...): name it.
        .package(name: "Airlink", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
    ],
    targets: [
        // The app's logic: the layers (Airlink), their value types (AirlinkCore) and the typed thermostat service
        // (AirlinkProfiles). No transport: it builds without the BlueZ system libraries.
        .target(
            name: "ThermostatKit",
            dependencies: [
                .product(name: "Airlink", package: "Airlink"),
                .product(name: "AirlinkCore", package: "Airlink"),
                .product(name: "AirlinkProfiles", package: "Airlink"),
            ]
        ),
        // The command line: `--transport sim|sim:PATH|bluez|bluez:hci1` through AirlinkTransports.
        .executableTarget(
            name: "thermostat-app",
            dependencies: [
                "ThermostatKit",
                .product(name: "AirlinkTransports", package: "Airlink"),
                .product(name: "AirlinkCore", package: "Airlink"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Tests on the virtual radio: the simulation (AirlinkSimulation), the built-in peripherals
        // (AirlinkProfiles) and scenarios with golden traces (AirlinkTestKit).
        .testTarget(
            name: "ThermostatKitTests",
            dependencies: [
                "ThermostatKit",
                .product(name: "Airlink", package: "Airlink"),
                .product(name: "AirlinkCore", package: "Airlink"),
                .product(name: "AirlinkProfiles", package: "Airlink"),
                .product(name: "AirlinkSimulation", package: "Airlink"),
                .product(name: "AirlinkTestKit", package: "Airlink"),
            ],
            // Read from the source tree through #filePath (golden traces are rewritten there with
            // RECORD_TRACES=1), so they are not resources of the test bundle.
            exclude: ["Scenarios", "Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
