import AirlinkCore

extension PeripheralSpec {
    /// State keys of the simulated thermostat's firmware.
    public enum ThermostatState {
        /// The room temperature in °C (`Double`).
        public static let temperature = "temperatureCelsius"
        /// The set point in °C (`Double`).
        public static let setPoint = "setPointCelsius"
    }

    /// WLXBluetoothDevice's example thermostat.
    ///
    /// Temperature service (…0066): temperature (…0067; read, write, notify; ``Temperature``, sint16 in
    /// 0.01 degrees of the current unit). Reading gives the room temperature; writing sets the set point (5 to 35 °C;
    /// others are refused with Value Not Allowed, 0x13), and the room temperature moves toward it by `rate` degrees
    /// Celsius per second of virtual time, in steps of one second, each notified. Unit (…0068; read, write;
    /// ``TemperatureUnit``, uint8 0 °C, 1 °F): reads and notifications of the temperature follow it. Battery service
    /// (…0070): level (…0069; read, notify; ``BatteryLevel``), draining 1 % every 10 minutes. Advertises every
    /// 100 ms with the Temperature service and the shortened name "Thermost" (the full name would overflow the 31
    /// bytes), and answers active scanners with its complete name, "Thermostat", and manufacturer data `A1 B2`
    /// under the SIG's test company identifier 0xFFFF in its scan response (as the fake BlueZ's thermostat does).
    ///
    /// With a `drift`, a room that has come within ``thermostatDriftBound`` (0.5 °C) of the set point wanders: every
    /// second it moves by a whole number of hundredths of a degree drawn uniformly from `-drift...drift` with the
    /// simulation's seeded random source (the same seed gives the same temperatures), staying within the bound;
    /// each change is notified. ``SimulatedWorld/builtIn``'s thermostat drifts by 0.05 °C, so a
    /// subscription to its temperature hears a value within a few seconds; without a drift (the default here,
    /// which scenarios and their golden traces rely on) a room at its set point stays silent.
    ///
    /// - Parameters:
    ///   - temperature: the room temperature, °C.
    ///   - setPoint: the set point, °C (the room temperature by default).
    ///   - unit: the initial unit.
    ///   - battery: the battery level, %.
    ///   - rate: how fast the room follows the set point, °C per second.
    ///   - drift: how far the room may wander each second around its set point, °C (0 to 1; 0: it stays still).
    ///   - id: the address.
    ///   - position: where it stands.
    public static func thermostat(
        temperature: Double = 21, setPoint: Double? = nil, unit: TemperatureUnit = .celsius, battery: UInt8 = 90,
        rate: Double = 0.1, drift: Double = 0, id: DeviceID = "C0:FF:EE:00:00:01", position: Position = .metres(2)
    ) -> PeripheralSpec {
        let driftSteps = Int((min(1, max(0, drift)) * 100).rounded())
        return PeripheralSpec(name: "Thermostat", id: id, appearance: Appearance(0x0300), position: position) {
            Advertising(every: .milliseconds(100)) {
                LocalName("Thermost", shortened: true)
                ServiceUUIDs(.thermostatTemperatureService)
            } scanResponse: {
                LocalName("Thermostat")
                ManufacturerData(company: 0xFFFF, [UInt8]([0xA1, 0xB2]))
            }
            State(ThermostatState.temperature, temperature)
            State(ThermostatState.setPoint, setPoint ?? temperature)
            Service(.thermostatTemperatureService) {
                Characteristic(
                    .thermostatTemperature, properties: [.read, .write, .notify],
                    value: Temperature(degrees: unit.fromCelsius(temperature))
                )
                .userDescription("Temperature")
                .onRead { context in thermostatReading(context) }
                .onWrite { context, written in
                    let celsius = thermostatUnit(context).toCelsius(written.degrees)
                    // Rounding to 0.01 of a degree in Fahrenheit may land just past the limits.
                    guard celsius >= 4.995, celsius <= 35.005 else { throw ATTRefusal(.valueNotAllowed) }
                    context.state[ThermostatState.setPoint] = min(35, max(5, celsius))
                }
                .updates(every: .seconds(1)) { _, context in
                    let current = context.state[ThermostatState.temperature, default: temperature]
                    let target = context.state[ThermostatState.setPoint, default: temperature]
                    if driftSteps > 0, abs(target - current) <= thermostatDriftBound {
                        let moved = current + Double(context.random.uniform(in: -driftSteps...driftSteps)) / 100
                        let bounded = min(target + thermostatDriftBound, max(target - thermostatDriftBound, moved))
                        let next = (bounded * 100).rounded() / 100
                        guard next != current else { return nil }
                        context.state[ThermostatState.temperature] = next
                        return thermostatReading(context)
                    }
                    guard current != target else { return nil }
                    let step = min(rate, abs(target - current))
                    context.state[ThermostatState.temperature] = current + (target > current ? step : -step)
                    return thermostatReading(context)
                }
                Characteristic(.thermostatUnit, properties: [.read, .write], value: unit)
                    .userDescription("Unit")
            }
            Service(.thermostatBatteryService) {
                Characteristic(.thermostatBatteryLevel, properties: [.read, .notify], value: BatteryLevel(battery))
                    .updates(every: .seconds(600)) { $0.drained(by: 1) }
            }
        }
    }

    /// How far a drifting thermostat's room strays from its set point at most: 0.5 °C.
    public static let thermostatDriftBound = 0.5

    private static func thermostatUnit(_ context: any PeripheralContext) -> TemperatureUnit {
        // try?: the firmware's own unit byte, which only the firmware and checked writes store; Celsius otherwise
        return (try? context.value(of: .thermostatUnit, as: TemperatureUnit.self)) ?? .celsius
    }

    private static func thermostatReading(_ context: any PeripheralContext) -> Temperature {
        let celsius = context.state[ThermostatState.temperature, default: 21.0]
        return Temperature(degrees: thermostatUnit(context).fromCelsius(celsius))
    }
}
