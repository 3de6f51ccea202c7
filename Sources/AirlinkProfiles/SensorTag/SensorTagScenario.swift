/// What happens around a simulated SensorTag: the room, what the IR sensor looks at, how the tag is held
/// and when its keys are pressed. ``SensorTagPhysics`` turns a scenario and a seed into sensor values.
///
/// The room changes slowly and never repeats; the handling repeats every ``cycle``. The default,
/// ``handHeldInWarmingRoom``, in each 120 s cycle: the tag lies flat on a desk until 10 s, is picked up
/// (10 ... 12 s), tilted and turned in the hand until 58 s, put down (58 ... 60 s) and rests until 120 s; a
/// thumb covers the IR sensor from 25 to 35 s; the left key is pressed at 5 s, the right at 15 s, both at
/// 40 s, the left again at 70 s.
public struct SensorTagScenario: Hashable, Sendable {
    // MARK: Room

    /// The air temperature at time zero, °C.
    public var initialAmbientCelsius: Double
    /// The temperature the room warms (or cools) towards, °C.
    public var finalAmbientCelsius: Double
    /// The time constant of the exponential approach: after it, 63 % of the change has happened.
    public var warmingTimeConstant: Duration
    /// The relative humidity at time zero, %. The air's water content stays constant, so the relative
    /// humidity falls as the room warms (Magnus formula).
    public var initialRelativeHumidity: Double
    /// The pressure at time zero, Pa.
    public var initialPressurePascals: Double
    /// The weather's pressure trend, Pa per hour (negative: a falling barometer).
    public var pressureTrendPascalsPerHour: Double
    /// The magnetic field of the Earth in the world frame (X north, Y west, Z up), µT. The default is a
    /// mid-European field: 20 µT horizontal to the north, 44 µT vertical downwards.
    public var earthFieldMicrotesla: SensorTagVector

    // MARK: What the IR sensor sees

    /// The temperature of what the IR sensor sees when nothing covers it, relative to the air, °C (a
    /// ceiling or wall, slightly cooler than the air).
    public var backgroundOffsetCelsius: Double
    /// The skin temperature of the thumb that covers the sensor, °C.
    public var thumbCelsius: Double
    /// When, within each cycle, the thumb covers the IR sensor (it moves in and out over 1 s at each end).
    public var thumbCovers: Range<Duration>

    // MARK: Handling

    /// The length of the handling script, which repeats.
    public var cycle: Duration
    /// When, within each cycle, the tag is in the hand (picked up over the first 2 s, put down over the last 2 s).
    public var heldDuring: Range<Duration>
    /// The heading of the tag at rest, degrees from north.
    public var restingHeadingDegrees: Double
    /// In the hand the tag rolls ± this many degrees ...
    public var rollAmplitudeDegrees: Double
    /// ... with this period,
    public var rollPeriod: Duration
    /// pitches ± this many degrees ...
    public var pitchAmplitudeDegrees: Double
    /// ... with this period,
    public var pitchPeriod: Duration
    /// and turns ± this many degrees about the vertical ...
    public var yawAmplitudeDegrees: Double
    /// ... with this period.
    public var yawPeriod: Duration
    /// The key presses, within each cycle.
    public var keyPresses: [KeyPress]

    // MARK: Sensor noise (standard deviations; zero turns a channel's noise off)

    /// Noise of each temperature reading, °C.
    public var temperatureNoiseCelsius: Double
    /// Noise of the relative humidity, %.
    public var humidityNoisePercent: Double
    /// Noise of the pressure, Pa.
    public var pressureNoisePascals: Double
    /// Noise of each acceleration axis, g (it also stands for the hand's small linear accelerations).
    public var accelerationNoiseG: Double
    /// Noise of each magnetic axis, µT.
    public var magneticNoiseMicrotesla: Double
    /// Noise of each gyroscope axis, °/s.
    public var rotationNoiseDegreesPerSecond: Double
    /// The gyroscope's zero-rate offset, °/s per axis.
    public var gyroscopeBiasDegreesPerSecond: SensorTagVector

    /// A press of one or more keys.
    public struct KeyPress: Hashable, Sendable {
        /// The keys held down.
        public var keys: SensorTagKeys
        /// When the press starts, within the cycle.
        public var at: Duration
        /// How long the keys stay down.
        public var duration: Duration

        /// Creates a key press.
        public init(_ keys: SensorTagKeys, at: Duration, for duration: Duration) {
            self.keys = keys
            self.at = at
            self.duration = duration
        }
    }

    /// A room warming from 19 to 23 °C (time constant 20 min, 50 % humidity at the start, 1013.25 hPa
    /// falling 100 Pa an hour) and a tag picked up, tilted, turned and put down every two minutes.
    public static let handHeldInWarmingRoom = SensorTagScenario(
        initialAmbientCelsius: 19, finalAmbientCelsius: 23, warmingTimeConstant: .seconds(20 * 60),
        initialRelativeHumidity: 50, initialPressurePascals: 101_325, pressureTrendPascalsPerHour: -100,
        earthFieldMicrotesla: SensorTagVector(x: 20, y: 0, z: -44),
        backgroundOffsetCelsius: -1.5, thumbCelsius: 33, thumbCovers: Duration.seconds(25)..<Duration.seconds(35),
        cycle: .seconds(120), heldDuring: Duration.seconds(10)..<Duration.seconds(60), restingHeadingDegrees: 30,
        rollAmplitudeDegrees: 25, rollPeriod: .seconds(8), pitchAmplitudeDegrees: 15, pitchPeriod: .seconds(11),
        yawAmplitudeDegrees: 60, yawPeriod: .seconds(30),
        keyPresses: [
            KeyPress(.left, at: .seconds(5), for: .milliseconds(400)),
            KeyPress(.right, at: .seconds(15), for: .milliseconds(300)),
            KeyPress([.left, .right], at: .seconds(40), for: .seconds(1)),
            KeyPress(.left, at: .seconds(70), for: .milliseconds(200)),
        ],
        temperatureNoiseCelsius: 0.02, humidityNoisePercent: 0.1, pressureNoisePascals: 1.5,
        accelerationNoiseG: 0.005, magneticNoiseMicrotesla: 0.3, rotationNoiseDegreesPerSecond: 0.2,
        gyroscopeBiasDegreesPerSecond: SensorTagVector(x: 0.4, y: -0.3, z: 0.2))

    /// This scenario without sensor noise or gyroscope bias: the values are the script's exact ones.
    public var noiseless: SensorTagScenario {
        var copy = self
        copy.temperatureNoiseCelsius = 0
        copy.humidityNoisePercent = 0
        copy.pressureNoisePascals = 0
        copy.accelerationNoiseG = 0
        copy.magneticNoiseMicrotesla = 0
        copy.rotationNoiseDegreesPerSecond = 0
        copy.gyroscopeBiasDegreesPerSecond = .zero
        return copy
    }
}
