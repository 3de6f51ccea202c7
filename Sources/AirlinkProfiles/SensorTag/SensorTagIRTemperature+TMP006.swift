import AirlinkCore

/// TI's TMP006 object temperature model, as the SensorTag User Guide and Deanna's `calcTmpTarget` give it.
///
/// From the TMP006 User's Guide (SBOU107, "Equations for calculating target object temperatures") with
/// TI's default coefficients:
///
/// ```
/// Vobj  = raw × 156.25 nV                      (0.00000015625 V per count)
/// Tdie  = ambient + 273.15 K
/// S     = S0 · (1 + a1·(Tdie - Tref) + a2·(Tdie - Tref)²)
/// Vos   = b0 + b1·(Tdie - Tref) + b2·(Tdie - Tref)²
/// f     = (Vobj - Vos) + c2·(Vobj - Vos)²
/// Tobj  = (Tdie⁴ + f / S)^¼ - 273.15 °C
/// S0 = 6.4e-14, a1 = 1.75e-3, a2 = -1.678e-5, b0 = -2.94e-5, b1 = -5.7e-7, b2 = 4.63e-9,
/// c2 = 13.4, Tref = 298.15 K
/// ```
extension SensorTagIRTemperature {
    /// Volts per count of the thermopile voltage register, 156.25 nV.
    public static let voltsPerCount = 0.000_000_156_25
    /// The calibration factor S0 (TI's default; a real tag is calibrated per device), 6.4e-14.
    public static let s0 = 6.4e-14
    /// a1, 1.75e-3.
    public static let a1 = 1.75e-3
    /// a2, -1.678e-5.
    public static let a2 = -1.678e-5
    /// b0, -2.94e-5.
    public static let b0 = -2.94e-5
    /// b1, -5.7e-7.
    public static let b1 = -5.7e-7
    /// b2, 4.63e-9.
    public static let b2 = 4.63e-9
    /// c2, 13.4.
    public static let c2 = 13.4
    /// The reference temperature Tref, 298.15 K.
    public static let referenceKelvin = 298.15
    /// 0 °C in kelvin, 273.15.
    static let kelvinOffset = 273.15

    /// The object temperature for a thermopile voltage and a die temperature (TI's formula, above).
    ///
    /// - Parameters:
    ///   - voltage: the thermopile voltage in volts.
    ///   - dieCelsius: the die temperature in °C.
    /// - Returns: the object temperature in °C.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if the formula has no real answer: the sensitivity
    ///   `S` is not positive (a die below about -172 °C) or `Tdie⁴ + f/S` is negative (an object below 0 K).
    public static func objectCelsius(voltage: Double, dieCelsius: Double) throws(AirlinkError) -> Double {
        let die = dieCelsius + kelvinOffset
        let delta = die - referenceKelvin
        let sensitivity = s0 * (1 + a1 * delta + a2 * delta * delta)
        guard sensitivity > 0 else {
            throw AirlinkError(
                .invalidArgument,
                "the TMP006 model has no sensitivity at a die temperature of \(dieCelsius) °C")
        }
        let offset = b0 + b1 * delta + b2 * delta * delta
        let difference = voltage - offset
        let seebeck = difference + c2 * difference * difference
        let fourth = die * die * die * die + seebeck / sensitivity
        guard fourth >= 0 else {
            throw AirlinkError(
                .invalidArgument,
                "a TMP006 voltage of \(voltage) V at a die temperature of \(dieCelsius) °C implies an object "
                    + "below absolute zero")
        }
        return fourth.squareRoot().squareRoot() - kelvinOffset
    }

    /// The thermopile voltage that TI's formula turns into this object temperature: its exact inverse.
    ///
    /// `f = S·(Tobj⁴ - Tdie⁴)` and `f = x + c2·x²` with `x = Vobj - Vos`, so `x = 2f / (1 + √(1 + 4·c2·f))`
    /// (the root through zero, written without cancellation), and `Vobj = Vos + x`.
    ///
    /// - Parameters:
    ///   - objectCelsius: the object temperature in °C (at least -273.15).
    ///   - dieCelsius: the die temperature in °C.
    /// - Returns: the voltage in volts, unrounded.
    public static func voltage(objectCelsius: Double, dieCelsius: Double) -> Double {
        let die = dieCelsius + kelvinOffset
        let object = objectCelsius + kelvinOffset
        let delta = die - referenceKelvin
        let sensitivity = s0 * (1 + a1 * delta + a2 * delta * delta)
        let offset = b0 + b1 * delta + b2 * delta * delta
        let seebeck = sensitivity * (object * object * object * object - die * die * die * die)
        let discriminant = max(0, 1 + 4 * c2 * seebeck)
        return offset + 2 * seebeck / (1 + discriminant.squareRoot())
    }
}
