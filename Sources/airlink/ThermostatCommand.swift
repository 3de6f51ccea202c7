import Airlink
import AirlinkCore
import AirlinkProfiles
import ArgumentParser

/// `airlink thermostat ID get|set 21.5|unit celsius`.
struct ThermostatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thermostat",
        abstract: "Read a thermostat, set its set point, or set its unit.",
        discussion: """
            get: the temperature and unit. set DEGREES: the set point, in °C (5 to 35) or in the unit given \
            with --unit. unit celsius|fahrenheit: the unit of the thermostat's readings. Each run on the \
            simulation starts from the built-in world.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The thermostat's identifier (the simulated one is C0:FF:EE:00:00:01).")
    var id: String

    @Argument(help: "get, set or unit.")
    var action: String

    @Argument(help: "For set: the degrees; for unit: celsius or fahrenheit.")
    var value: String?

    @Option(name: .long, help: "The unit of the set point: celsius or fahrenheit.")
    var unit: String = "celsius"

    enum Action: Sendable {
        case get
        case set(Double, TemperatureUnit)
        case unit(TemperatureUnit)
    }

    func validate() throws {
        _ = try Arguments.device(id)
        _ = try parsedAction()
    }

    func parsedAction() throws -> Action {
        switch (action, value) {
        case ("get", nil): return .get
        case ("set", let text?):
            guard let degrees = Double(text), degrees.isFinite else {
                throw ValidationError("\"\(text)\" is not a temperature: write degrees such as 21.5")
            }
            let unit = try Self.unit(unit)
            guard ThermostatService.setPointRange.contains(unit.toCelsius(degrees)) else {
                let range = ThermostatService.setPointRange
                let (low, high) = (Self.number(range.lowerBound, unit), Self.number(range.upperBound, unit))
                throw ValidationError(
                    "the set point \(text.escapingControlCharacters()) \(unit) is outside what a thermostat accepts, "
                        + "\(low) to \(high) \(unit): write a value in that range, such as \(Self.number(21.5, unit))")
            }
            return .set(degrees, unit)
        case ("unit", let text?): return .unit(try Self.unit(text))
        case ("set", nil): throw ValidationError("set needs the degrees: airlink thermostat \(id) set 21.5")
        case ("unit", nil):
            throw ValidationError("unit needs celsius or fahrenheit: airlink thermostat \(id) unit celsius")
        case ("get", _?): throw ValidationError("get takes no value: airlink thermostat \(id) get")
        default: throw ValidationError("unknown action \"\(action)\": use get, set DEGREES or unit celsius|fahrenheit")
        }
    }

    static func unit(_ text: String) throws -> TemperatureUnit {
        switch text.lowercased() {
        case "celsius", "c": return .celsius
        case "fahrenheit", "f": return .fahrenheit
        default: throw ValidationError("unknown unit \"\(text)\": use celsius or fahrenheit")
        }
    }

    /// What `thermostat` reports: the action, what it set, and the temperature read after it.
    struct Report: Encodable, Sendable {
        /// Degrees in a unit, as JSON carries them: `{"degrees": 21.1, "unit": "celsius"}`.
        struct Degrees: Encodable, Sendable {
            var degrees: Double
            var unit: String
        }
        var device: String
        /// `get`, `set` or `unit`.
        var action: String
        /// The set point written (`set`).
        var setPoint: Degrees?
        /// The unit written (`unit`).
        var unit: String?
        var temperature: Degrees
    }

    func run() async throws {
        let action = try parsedAction()
        let json = global.json
        let (line, report) = try await DeviceSession.run(global, device: id) { connection, _ in
            let thermostat = ThermostatService(connection)
            var report = Report(
                device: connection.device.description, action: "get", temperature: Report.Degrees(degrees: 0, unit: ""))
            let line: String
            switch action {
            case .get:
                let reading = try await thermostat.temperature()
                line = "temperature \(reading)"
                report.temperature = Self.degrees(reading)
            case .set(let degrees, let unit):
                try await thermostat.setSetPoint(degrees, unit: unit)
                let reading = try await thermostat.temperature()
                line = Self.setLine(degrees, unit, temperature: reading)
                (report.action, report.setPoint) = ("set", Report.Degrees(degrees: degrees, unit: unit.name))
                report.temperature = Self.degrees(reading)
            case .unit(let unit):
                try await thermostat.setUnit(unit)
                let reading = try await thermostat.temperature()
                line = "unit \(unit); temperature \(reading)"
                (report.action, report.unit) = ("unit", unit.name)
                report.temperature = Self.degrees(reading)
            }
            return (line, report)
        }
        print(json ? Output.json(report) : line)
    }

    /// A reading as JSON degrees.
    static func degrees(_ reading: ThermostatReading) -> Report.Degrees {
        Report.Degrees(degrees: Double(reading.temperature.hundredths) / 100, unit: reading.unit.name)
    }
}

extension TemperatureUnit {
    /// `celsius` or `fahrenheit`, as typed and as JSON carries it.
    var name: String { self == .celsius ? "celsius" : "fahrenheit" }
}
