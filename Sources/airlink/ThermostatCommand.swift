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
        _ = try DeviceSession.device(id)
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

    func run() async throws {
        let action = try parsedAction()
        let line = try await DeviceSession.run(global, device: try DeviceSession.device(id)) { connection, _ in
            let thermostat = ThermostatService(connection)
            switch action {
            case .get:
                return "temperature \(try await thermostat.temperature())"
            case .set(let degrees, let unit):
                try await thermostat.setSetPoint(degrees, unit: unit)
                return Self.setLine(degrees, unit, temperature: try await thermostat.temperature())
            case .unit(let unit):
                try await thermostat.setUnit(unit)
                return "unit \(unit); temperature \(try await thermostat.temperature())"
            }
        }
        print(line)
    }
}
