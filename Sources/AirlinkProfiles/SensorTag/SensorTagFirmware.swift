import AirlinkCore

/// The behaviour of the simulated SensorTag's firmware: sensor switches, periods, measurements.
///
/// Each sensor keeps, in the peripheral's ``/AirlinkCore/PeripheralState``: whether it is on (and, for the
/// gyroscope, which axes), its period, and when its next measurement is due. One 10 ms tick (the
/// resolution of the period characteristic) samples every sensor that is due from the
/// ``SensorTagPhysics`` and notifies its data, and reports key changes.
enum SensorTagFirmware {
    /// The tick of the firmware's scheduler: the period characteristic's resolution.
    static let tick: Duration = .milliseconds(10)

    /// TI's `ATT_ERR_INVALID_VALUE` (0x80, an application error): what `SensorTag.c` answers to a period
    /// below the sensor's minimum, and to a write of the wrong length.
    static let invalidValue = ATTError(0x80)

    /// State key: the sensor's command (`SensorTagConfiguration.Command?`; `nil` or `.disable` when off).
    static func commandKey(_ sensor: SensorTagSensor) -> String { "sensorTag.\(sensor.rawValue).command" }
    /// State key: the sensor's period (`SensorTagPeriod`).
    static func periodKey(_ sensor: SensorTagSensor) -> String { "sensorTag.\(sensor.rawValue).period" }
    /// State key: when the next measurement is due (`Duration` since the simulation started).
    static func dueKey(_ sensor: SensorTagSensor) -> String { "sensorTag.\(sensor.rawValue).due" }
    /// State key: whether the barometer's calibration was copied into F000AA43 (`Bool`).
    static let calibratedKey = "sensorTag.barometer.calibrated"

    /// The axes the sensor measures, or `nil` while it is off.
    static func enabledAxes(_ sensor: SensorTagSensor, _ state: PeripheralState) -> SensorTagGyroscopeAxes? {
        switch state[commandKey(sensor), as: SensorTagConfiguration.Command.self] {
        case .enable?: .all
        case .enableAxes(let axes)?: axes
        case .readCalibration?, .disable?, nil: nil
        }
    }

    /// The time of a context as the physics counts it: since the simulation started.
    static func time(_ context: any PeripheralContext) -> Duration { context.now.offset }

    /// `time` rounded down to the firmware's 10 ms tick.
    static func quantized(_ time: Duration) -> Duration {
        let ticks = time.nanoseconds / tick.nanoseconds
        return .nanoseconds(ticks * tick.nanoseconds)
    }

    /// The bytes of a sensor's data characteristic now: zeros while it is off, else the physics sampled
    /// at the last 10 ms tick.
    static func data(
        _ sensor: SensorTagSensor, _ context: any PeripheralContext, physics: SensorTagPhysics,
        calibration: SensorTagBarometerCalibration
    ) -> [UInt8] {
        guard let axes = enabledAxes(sensor, context.state) else {
            return Array(repeating: 0, count: sensor.dataLength)
        }
        return physics.sample(at: quantized(time(context))).data(
            for: sensor, calibration: calibration, gyroscopeAxes: axes)
    }

    /// A client wrote a configuration byte.
    static func configure(
        _ sensor: SensorTagSensor, _ configuration: SensorTagConfiguration, _ context: any PeripheralContext
    ) throws(ATTRefusal) {
        let command: SensorTagConfiguration.Command
        do {
            command = try configuration.command(for: sensor)
        } catch {
            // The firmware stores a byte it does not define and does nothing with it.
            context.log("\(sensor) ignores configuration \(configuration)")
            return
        }
        var state = context.state
        switch command {
        case .readCalibration:
            state[calibratedKey] = true
        case .disable, .enable, .enableAxes:
            state[commandKey(sensor)] = command
            let period = state[periodKey(sensor), default: SensorTagPeriod.defaultPeriod(for: sensor)]
            state[dueKey(sensor)] = time(context) + period.duration
        }
        context.state = state
        context.log("\(sensor) configuration \(configuration)")
    }

    /// A client wrote a period byte: refused with ``invalidValue`` below the sensor's minimum.
    static func setPeriod(
        _ sensor: SensorTagSensor, _ period: SensorTagPeriod, _ context: any PeripheralContext
    ) throws(ATTRefusal) {
        do {
            try period.validated(for: sensor)
        } catch {
            context.log("\(sensor) refuses period \(period): \(error.message)")
            throw ATTRefusal(invalidValue)
        }
        var state = context.state
        state[periodKey(sensor)] = period
        state[dueKey(sensor)] = time(context) + period.duration
        context.state = state
    }

    /// One tick: every sensor that is on and due is sampled and notified; returns the keys' state.
    static func tick(
        _ context: any PeripheralContext, physics: SensorTagPhysics, calibration: SensorTagBarometerCalibration
    ) -> SensorTagKeys {
        let now = time(context)
        var state = context.state
        var due: [(SensorTagSensor, Duration, SensorTagGyroscopeAxes)] = []
        for sensor in SensorTagSensor.allCases {
            guard let axes = enabledAxes(sensor, state) else { continue }
            let next = state[dueKey(sensor), default: now]
            guard next <= now else { continue }
            let period = state[periodKey(sensor), default: SensorTagPeriod.defaultPeriod(for: sensor)].duration
            // Behind by more than a period (no central was connected): start again from now.
            let following = next + period
            state[dueKey(sensor)] = following > now ? following : now + period
            due.append((sensor, next, axes))
        }
        if !due.isEmpty { context.state = state }
        for (sensor, time, axes) in due {
            let bytes = physics.sample(at: time).data(for: sensor, calibration: calibration, gyroscopeAxes: axes)
            // try?: notify throws only for a characteristic the spec lacks, and these are the spec's own; the radio
            // traces a value it refuses
            try? context.notify(bytes, of: sensor.dataUUID, in: sensor.serviceUUID)
        }
        return physics.keys(at: now)
    }
}
