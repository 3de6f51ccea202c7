/// How the tag is turned: yaw, pitch and roll (Z-Y-X Euler angles), in degrees.
///
/// The world frame has X pointing north, Y west and Z up; the tag's frame is its sensors' X, Y, Z, with
/// Z out of the top of the board. Lying flat with its X axis to the north the tag has all angles zero.
/// The rotation from the tag's frame to the world is `Rz(yaw) · Ry(pitch) · Rx(roll)`.
public struct SensorTagOrientation: Hashable, Sendable, CustomStringConvertible {
    /// Rotation about the world's vertical, degrees (heading, counter-clockwise seen from above).
    public var yawDegrees: Double
    /// Rotation about the tag's Y axis after yaw, degrees.
    public var pitchDegrees: Double
    /// Rotation about the tag's X axis after yaw and pitch, degrees.
    public var rollDegrees: Double

    /// Creates an orientation from its angles in degrees.
    public init(yawDegrees: Double, pitchDegrees: Double, rollDegrees: Double) {
        self.yawDegrees = yawDegrees
        self.pitchDegrees = pitchDegrees
        self.rollDegrees = rollDegrees
    }

    /// A world vector as the tag's sensors see it: `Rx(roll)ᵀ · Ry(pitch)ᵀ · Rz(yaw)ᵀ · v`.
    ///
    /// - Parameter world: the vector in the world frame (X north, Y west, Z up).
    /// - Returns: the same vector in the tag's frame.
    public func tagVector(fromWorld world: SensorTagVector) -> SensorTagVector {
        let radians = Double.pi / 180
        let (sinYaw, cosYaw) = (SensorTagMath.sine(yawDegrees * radians), SensorTagMath.cosine(yawDegrees * radians))
        let (sinPitch, cosPitch) = (
            SensorTagMath.sine(pitchDegrees * radians), SensorTagMath.cosine(pitchDegrees * radians)
        )
        let (sinRoll, cosRoll) = (
            SensorTagMath.sine(rollDegrees * radians), SensorTagMath.cosine(rollDegrees * radians)
        )
        // Undo yaw, then pitch, then roll.
        let afterYaw = SensorTagVector(
            x: cosYaw * world.x + sinYaw * world.y, y: -sinYaw * world.x + cosYaw * world.y, z: world.z)
        let afterPitch = SensorTagVector(
            x: cosPitch * afterYaw.x - sinPitch * afterYaw.z, y: afterYaw.y,
            z: sinPitch * afterYaw.x + cosPitch * afterYaw.z)
        return SensorTagVector(
            x: afterPitch.x, y: cosRoll * afterPitch.y + sinRoll * afterPitch.z,
            z: -sinRoll * afterPitch.y + cosRoll * afterPitch.z)
    }

    /// The rotation rate about the tag's own axes, in °/s, for these angles changing at these rates:
    /// `p = φ̇ - ψ̇·sin θ`, `q = θ̇·cos φ + ψ̇·cos θ·sin φ`, `r = -θ̇·sin φ + ψ̇·cos θ·cos φ`
    /// (φ roll, θ pitch, ψ yaw; the Z-Y-X Euler kinematics).
    ///
    /// - Parameter rates: the angles' rates of change in °/s, as an orientation.
    /// - Returns: the angular velocity about the tag's X, Y, Z in °/s.
    public func tagAngularVelocity(angleRates rates: SensorTagOrientation) -> SensorTagVector {
        let radians = Double.pi / 180
        let (sinPitch, cosPitch) = (
            SensorTagMath.sine(pitchDegrees * radians), SensorTagMath.cosine(pitchDegrees * radians)
        )
        let (sinRoll, cosRoll) = (
            SensorTagMath.sine(rollDegrees * radians), SensorTagMath.cosine(rollDegrees * radians)
        )
        return SensorTagVector(
            x: rates.rollDegrees - rates.yawDegrees * sinPitch,
            y: rates.pitchDegrees * cosRoll + rates.yawDegrees * cosPitch * sinRoll,
            z: -rates.pitchDegrees * sinRoll + rates.yawDegrees * cosPitch * cosRoll)
    }

    /// `"yaw 30.0°, pitch 0.0°, roll 0.0°"`.
    public var description: String {
        "yaw \(SensorTagFormat.fixed(yawDegrees, 1))°, pitch \(SensorTagFormat.fixed(pitchDegrees, 1))°, "
            + "roll \(SensorTagFormat.fixed(rollDegrees, 1))°"
    }
}
