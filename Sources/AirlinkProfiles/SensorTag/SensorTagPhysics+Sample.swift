import AirlinkCore

extension SensorTagPhysics {
    /// Noise channels; each is independent of the others.
    enum Channel: UInt64 {
        case dieTemperature = 1
        case objectTemperature, humidityTemperature, relativeHumidity
        case barometerTemperature, pressure
        case accelerationX, accelerationY, accelerationZ
        case magneticX, magneticY, magneticZ
        case rotationX, rotationY, rotationZ
    }

    /// Noise of a channel at a time, scaled to a standard deviation.
    func noise(_ channel: Channel, at time: Duration, _ deviation: Double) -> Double {
        guard deviation != 0 else { return 0 }
        return deviation * noise.value(channel.rawValue, at: Self.seconds(time), spacing: 1)
    }

    /// What every sensor of the tag measures at a time (noise included).
    ///
    /// - Parameter time: the time since the simulation started.
    public func sample(at time: Duration) -> Sample {
        let s = scenario
        let air = airCelsius(at: time)
        let (angles, rates) = motion(at: time)
        let up = angles.tagVector(fromWorld: SensorTagVector(x: 0, y: 0, z: 1))
        let field = angles.tagVector(fromWorld: s.earthFieldMicrotesla)
        let rotation = angles.tagAngularVelocity(angleRates: rates) + s.gyroscopeBiasDegreesPerSecond
        func vector(_ x: Channel, _ y: Channel, _ z: Channel, _ deviation: Double) -> SensorTagVector {
            SensorTagVector(
                x: noise(x, at: time, deviation), y: noise(y, at: time, deviation), z: noise(z, at: time, deviation))
        }
        return Sample(
            time: time,
            dieCelsius: air + noise(.dieTemperature, at: time, s.temperatureNoiseCelsius),
            objectCelsius: objectCelsiusWithoutNoise(at: time)
                + noise(.objectTemperature, at: time, s.temperatureNoiseCelsius),
            humidityTemperatureCelsius: air + noise(.humidityTemperature, at: time, s.temperatureNoiseCelsius),
            relativeHumidity: min(
                100,
                max(0, airRelativeHumidity(at: time) + noise(.relativeHumidity, at: time, s.humidityNoisePercent))),
            barometerTemperatureCelsius: air + noise(.barometerTemperature, at: time, s.temperatureNoiseCelsius),
            pressurePascals: airPressurePascals(at: time) + noise(.pressure, at: time, s.pressureNoisePascals),
            orientation: angles,
            acceleration: up + vector(.accelerationX, .accelerationY, .accelerationZ, s.accelerationNoiseG),
            magneticField: field + vector(.magneticX, .magneticY, .magneticZ, s.magneticNoiseMicrotesla),
            angularVelocity: rotation + vector(.rotationX, .rotationY, .rotationZ, s.rotationNoiseDegreesPerSecond),
            keys: keys(at: time))
    }

    /// Everything the tag's sensors measure at one moment, in physical units.
    public struct Sample: Hashable, Sendable {
        /// When.
        public var time: Duration
        /// The TMP006's die temperature (the tag's ambient temperature), °C.
        public var dieCelsius: Double
        /// The temperature of what the TMP006 looks at, °C.
        public var objectCelsius: Double
        /// The SHT21's temperature, °C.
        public var humidityTemperatureCelsius: Double
        /// The relative humidity, % (0 ... 100).
        public var relativeHumidity: Double
        /// The T5400's temperature, °C.
        public var barometerTemperatureCelsius: Double
        /// The pressure, Pa.
        public var pressurePascals: Double
        /// How the tag is turned.
        public var orientation: SensorTagOrientation
        /// The acceleration the accelerometer feels (specific force), g, in the tag's frame: 1 g up at rest.
        public var acceleration: SensorTagVector
        /// The magnetic field in the tag's frame, µT.
        public var magneticField: SensorTagVector
        /// The rotation rate about the tag's axes, °/s, bias included.
        public var angularVelocity: SensorTagVector
        /// The keys held down.
        public var keys: SensorTagKeys

        /// The IR temperature data (F000AA01) a tag would report.
        public var irTemperature: SensorTagIRTemperature {
            SensorTagIRTemperature(objectCelsius: objectCelsius, ambientCelsius: dieCelsius)
        }

        /// The humidity data (F000AA21) a tag would report.
        public var humidity: SensorTagHumidity {
            SensorTagHumidity(temperatureCelsius: humidityTemperatureCelsius, relativeHumidity: relativeHumidity)
        }

        /// The barometer data (F000AA41) a tag with this calibration would report.
        ///
        /// - Parameter calibration: the tag's coefficients; ``SensorTagBarometerCalibration/simulated`` by default.
        public func barometer(calibration: SensorTagBarometerCalibration = .simulated) -> SensorTagBarometerData {
            calibration.data(temperatureCelsius: barometerTemperatureCelsius, pressurePascals: pressurePascals)
        }

        /// The accelerometer data (F000AA11) a tag would report.
        public var accelerometer: SensorTagAcceleration { SensorTagAcceleration(g: acceleration) }

        /// The magnetometer data (F000AA31) a tag would report.
        public var magnetometer: SensorTagMagneticField { SensorTagMagneticField(microtesla: magneticField) }

        /// The gyroscope data (F000AA51) a tag would report, with only these axes on.
        ///
        /// - Parameter axes: the axes the configuration enables; all by default.
        public func gyroscope(axes: SensorTagGyroscopeAxes = .all) -> SensorTagAngularVelocity {
            SensorTagAngularVelocity(degreesPerSecond: angularVelocity).masked(to: axes)
        }

        /// The bytes of a sensor's data characteristic at this moment.
        ///
        /// - Parameters:
        ///   - sensor: the sensor.
        ///   - calibration: the barometer's coefficients.
        ///   - gyroscopeAxes: the gyroscope's enabled axes.
        public func data(
            for sensor: SensorTagSensor, calibration: SensorTagBarometerCalibration = .simulated,
            gyroscopeAxes: SensorTagGyroscopeAxes = .all
        ) -> [UInt8] {
            switch sensor {
            case .irTemperature: irTemperature.gattBytes
            case .accelerometer: accelerometer.gattBytes
            case .humidity: humidity.gattBytes
            case .magnetometer: magnetometer.gattBytes
            case .barometer: barometer(calibration: calibration).gattBytes
            case .gyroscope: gyroscope(axes: gyroscopeAxes).gattBytes
            }
        }
    }
}
