import AirlinkCore

/// The physical world of a simulated SensorTag: every quantity its sensors measure, as a deterministic
/// function of virtual time and a seed.
///
/// Each function takes the time since the simulation started and returns the same value for the same
/// seed and time, whatever was asked before and in whatever order, so a simulated tag can sample at its
/// sensors' periods and a test can ask for the value it expects. What happens follows a
/// ``SensorTagScenario`` (by default a room warming slowly while the tag is picked up, tilted, turned,
/// put down, and its keys pressed); measurement noise is smooth seeded noise
/// (knots every second, blended with smoothstep), different for each seed.
///
/// ```swift
/// let physics = SensorTagPhysics(random: environment.random)  // draws its seed once
/// let now = physics.sample(at: .seconds(30))
/// let bytes = now.data(for: .humidity)                        // what F000AA21 carries now
/// ```
///
/// The models, all documented in Docs/SensorTag.md:
/// - air temperature: exponential approach from the initial to the final temperature;
/// - relative humidity: constant water content, so `RH = RH₀ · es(T₀) / es(T)` with the Magnus formula
///   `es(T) = 6.112 hPa · exp(17.62·T / (243.12 + T))`;
/// - pressure: a linear weather trend;
/// - IR object: the background (air + offset), blended smoothly to the thumb's temperature while covered;
/// - orientation: at rest flat at the resting heading; in the hand, roll, pitch and yaw oscillate
///   sinusoidally, faded in and out with smoothstep; acceleration is the reaction to gravity (1 g up) and
///   the magnetic field the Earth's, both turned into the tag's frame; the rotation rate follows from the
///   angles' derivatives (Z-Y-X Euler kinematics) plus the gyroscope's bias.
public struct SensorTagPhysics: Hashable, Sendable {
    /// Seeds every noise channel: the same seed and scenario give the same readings.
    public let seed: UInt64
    /// What happens.
    public let scenario: SensorTagScenario
    let noise: SensorTagNoise

    /// Creates the world of one tag.
    ///
    /// - Parameters:
    ///   - seed: the noise seed; the same seed gives the same values.
    ///   - scenario: what happens; ``SensorTagScenario/handHeldInWarmingRoom`` by default.
    public init(seed: UInt64, scenario: SensorTagScenario = .handHeldInWarmingRoom) {
        self.seed = seed
        self.scenario = scenario
        self.noise = SensorTagNoise(seed: seed)
    }

    /// Creates the world of one tag, drawing its seed from a random source (a simulation's
    /// `environment.random`), so that the simulation's seed decides the noise.
    ///
    /// - Parameters:
    ///   - random: the source; one value is drawn, once.
    ///   - scenario: what happens.
    public init(random: any RandomSource, scenario: SensorTagScenario = .handHeldInWarmingRoom) {
        self.init(seed: random.next(), scenario: scenario)
    }

    // MARK: Room

    /// The air temperature without noise, °C: `T∞ - (T∞ - T₀) · e^(-t/τ)`.
    public func airCelsius(at time: Duration) -> Double {
        let tau = Self.seconds(scenario.warmingTimeConstant)
        let progress = tau > 0 ? 1 - SensorTagMath.exponential(-max(0, Self.seconds(time)) / tau) : 1
        return scenario.initialAmbientCelsius
            + (scenario.finalAmbientCelsius - scenario.initialAmbientCelsius) * progress
    }

    /// The relative humidity without noise, %: the initial humidity scaled by the saturation pressures.
    public func airRelativeHumidity(at time: Duration) -> Double {
        let ratio =
            Self.saturationPressure(scenario.initialAmbientCelsius) / Self.saturationPressure(airCelsius(at: time))
        return min(100, max(0, scenario.initialRelativeHumidity * ratio))
    }

    /// The pressure without noise, Pa.
    public func airPressurePascals(at time: Duration) -> Double {
        scenario.initialPressurePascals + scenario.pressureTrendPascalsPerHour * Self.seconds(time) / 3600
    }

    /// The temperature of what the IR sensor sees, without noise, °C.
    public func objectCelsiusWithoutNoise(at time: Duration) -> Double {
        let background = airCelsius(at: time) + scenario.backgroundOffsetCelsius
        let cover = Self.window(scenario.thumbCovers, ramp: 1, at: cycleSeconds(time))
        return background + (scenario.thumbCelsius - background) * cover
    }

    // MARK: Handling

    /// The tag's orientation at a time.
    public func orientation(at time: Duration) -> SensorTagOrientation {
        motion(at: time).angles
    }

    /// The angles and their rates of change (°, °/s) at a time.
    func motion(at time: Duration) -> (angles: SensorTagOrientation, rates: SensorTagOrientation) {
        let t = cycleSeconds(time)
        let (held, heldRate) = Self.windowWithRate(scenario.heldDuring, ramp: 2, at: t)
        func wave(_ amplitude: Double, _ period: Duration, phase: Double) -> (Double, Double) {
            let seconds = Self.seconds(period)
            guard seconds > 0 else { return (0, 0) }
            let omega = 2 * Double.pi / seconds
            let value = amplitude * SensorTagMath.sine(omega * t + phase)
            let rate = amplitude * omega * SensorTagMath.cosine(omega * t + phase)
            return (held * value, heldRate * value + held * rate)
        }
        let roll = wave(scenario.rollAmplitudeDegrees, scenario.rollPeriod, phase: 0)
        let pitch = wave(scenario.pitchAmplitudeDegrees, scenario.pitchPeriod, phase: 0.5)
        let yaw = wave(scenario.yawAmplitudeDegrees, scenario.yawPeriod, phase: 1)
        return (
            SensorTagOrientation(
                yawDegrees: scenario.restingHeadingDegrees + yaw.0, pitchDegrees: pitch.0, rollDegrees: roll.0),
            SensorTagOrientation(yawDegrees: yaw.1, pitchDegrees: pitch.1, rollDegrees: roll.1)
        )
    }

    /// The keys held down at a time.
    public func keys(at time: Duration) -> SensorTagKeys {
        let t = cycleTime(time)
        var keys: SensorTagKeys = []
        for press in scenario.keyPresses where t >= press.at && t < press.at + press.duration {
            keys.formUnion(press.keys)
        }
        return keys
    }

    /// Every change of the keys' state within a time range, in order: the notifications a tag sends.
    ///
    /// - Parameter range: the times to look at.
    /// - Returns: each time the state changes, with the new state.
    public func keyChanges(in range: Range<Duration>) -> [(time: Duration, keys: SensorTagKeys)] {
        let cycle = scenario.cycle
        guard cycle.nanoseconds > 0, !range.isEmpty else { return [] }
        let firstCycle = Self.floorDivide(range.lowerBound, cycle)
        let lastCycle = Self.floorDivide(range.upperBound, cycle)
        var edges: [Duration] = []
        for index in firstCycle...lastCycle {
            let start = cycle * index
            for press in scenario.keyPresses {
                edges.append(start + press.at)
                edges.append(start + press.at + press.duration)
            }
        }
        var changes: [(time: Duration, keys: SensorTagKeys)] = []
        var previous = keys(at: range.lowerBound - .nanoseconds(1))
        for edge in Set(edges).sorted() where range.contains(edge) {
            let state = keys(at: edge)
            if state != previous { changes.append((edge, state)) }
            previous = state
        }
        return changes
    }

    // MARK: Helpers

    /// The time within the current cycle, exact to the nanosecond.
    func cycleTime(_ time: Duration) -> Duration {
        let cycle = scenario.cycle.nanoseconds
        guard cycle > 0 else { return time }
        let t = time.nanoseconds
        let remainder = t % cycle
        return .nanoseconds(remainder < 0 ? remainder + cycle : remainder)
    }

    /// The time within the current cycle, in seconds.
    func cycleSeconds(_ time: Duration) -> Double { Self.seconds(cycleTime(time)) }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// ⌊a / b⌋ for durations, to the nanosecond.
    static func floorDivide(_ a: Duration, _ b: Duration) -> Int {
        let (quotient, remainder) = a.nanoseconds.quotientAndRemainder(dividingBy: b.nanoseconds)
        return Int(remainder < 0 ? quotient - 1 : quotient)
    }

    /// The saturation vapour pressure over water, hPa (Magnus formula, WMO coefficients).
    static func saturationPressure(_ celsius: Double) -> Double {
        6.112 * SensorTagMath.exponential(17.62 * celsius / (243.12 + celsius))
    }

    /// 0 outside `range`, 1 inside, smoothstep ramps of `ramp` seconds at the inner ends.
    static func window(_ range: Range<Duration>, ramp: Double, at t: Double) -> Double {
        windowWithRate(range, ramp: ramp, at: t).value
    }

    /// The window and its rate of change per second.
    static func windowWithRate(_ range: Range<Duration>, ramp: Double, at t: Double) -> (value: Double, rate: Double) {
        let start = seconds(range.lowerBound)
        let end = seconds(range.upperBound)
        let rampLength = min(ramp, (end - start) / 2)
        guard rampLength > 0, t > start, t < end else { return (0, 0) }
        if t < start + rampLength { return smoothstep((t - start) / rampLength, scale: 1 / rampLength) }
        if t > end - rampLength {
            let (value, rate) = smoothstep((end - t) / rampLength, scale: 1 / rampLength)
            return (value, -rate)
        }
        return (1, 0)
    }

    /// `3u² - 2u³` and its derivative times `scale`.
    static func smoothstep(_ u: Double, scale: Double) -> (value: Double, rate: Double) {
        (u * u * (3 - 2 * u), 6 * u * (1 - u) * scale)
    }
}
