import Airlink
import AirlinkCore
import AirlinkProfiles
import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `airlink sensortag [ID]`: every sensor of a TI SensorTag, decoded and updating.
struct SensorTagCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sensortag",
        abstract: "Show every sensor of a TI SensorTag, decoded, as it updates (the simulated tag by default).",
        discussion: """
            Turns every sensor on at --period, then prints the latest values after each update (an update: \
            every sensor reported once). On the simulation, --count updates run in virtual time. --json \
            prints one JSON object per reading instead.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The SensorTag's identifier.")
    var id: String = PeripheralSpec.sensorTagID.description

    @Option(name: .long, parsing: .unconditional, help: "How many updates to show (at most 10000).")
    var count: Int = 5

    @Option(
        name: .long, parsing: .unconditional,
        help: "The sensors' period: 100ms to 2550ms in steps of 10ms (the IR sensor: 300ms at least).")
    var period: String = "1s"

    /// The most updates shown: each is a period of (virtual) time, so more would not end.
    static let maximumCount = 10_000

    func validate() throws {
        _ = try Arguments.device(id)
        guard count > 0, count <= Self.maximumCount else {
            throw ValidationError(
                "--count \(count) is not from 1 to \(Self.maximumCount): write how many updates to show, such as 5")
        }
        let duration = try DurationArgument.parse(period, flag: "--period")
        do {
            _ = try SensorTagPeriod(duration, for: .accelerometer)
        } catch {
            throw ValidationError("--period \(period): \(error.message)")
        }
    }

    func run() async throws {
        let period = try DurationArgument.parse(period, flag: "--period")
        let (count, json) = (self.count, global.json)
        let redraw = !json && isatty(1) == 1
        try await DeviceSession.run(global, device: id) { connection, clock in
            let tag = SensorTagService(connection)
            // Subscribe first, then turn the sensors on while the readings are printed as they come.
            let readings = try await tag.readings()
            async let enabling: Void = {
                for sensor in SensorTagSensor.allCases {
                    try await tag.setPeriod(max(period, sensor.minimumPeriod), for: sensor)
                    try await tag.enable(sensor)
                }
            }()
            var latest: [String: SensorTagReading] = [:]
            var reported: [SensorTagSensor] = []
            var updates = 0
            var printedLines = 0
            for await reading in readings {
                let time = Seconds(clock.now.offset)
                latest[reading.name] = reading
                if json { print(SensorTagOutput.jsonLine(reading, time: time)) }
                guard let sensor = reading.sensor else { continue }
                if !reported.contains(sensor) { reported.append(sensor) }
                guard reported.count == SensorTagSensor.allCases.count else { continue }
                reported.removeAll()
                updates += 1
                if !json {
                    let lines = SensorTagOutput.table(latest, time: time)
                    if redraw && printedLines > 0 { print("\u{1B}[\(printedLines)A", terminator: "") }
                    print(lines.map { $0 + (redraw ? "\u{1B}[K" : "") }.joined(separator: "\n"))
                    printedLines = lines.count
                }
                if updates == count { break }
            }
            try await enabling
        }
    }
}
