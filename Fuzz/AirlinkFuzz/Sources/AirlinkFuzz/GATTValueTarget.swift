import AirlinkCore
import AirlinkProfiles

/// The typed GATT values of AirlinkCore and the profiles, as a peripheral sends them.
///
/// Input: a byte choosing the type, then the value's bytes. Decoding never traps and throws only
/// `malformedData`; what decodes encodes to bytes that decode again, and encoding is then stable.
let gattValueTarget = FuzzTarget(name: "gatt-value") { bytes in
    guard let first = bytes.first else { return }
    let check = gattValueChecks[Int(first) % gattValueChecks.count]
    check(Array(bytes.dropFirst()))
}

/// One check per type, in a fixed order (the corpus's first byte chooses by index).
private let gattValueChecks: [@Sendable ([UInt8]) -> Void] = [
    { checkGATTValue([UInt8].self, $0) }, { checkGATTValue(String.self, $0) },
    { checkGATTValue(UInt8.self, $0) }, { checkGATTValue(UInt16.self, $0) }, { checkGATTValue(UInt32.self, $0) },
    { checkGATTValue(UInt64.self, $0) }, { checkGATTValue(Int8.self, $0) }, { checkGATTValue(Int16.self, $0) },
    { checkGATTValue(Int32.self, $0) }, { checkGATTValue(Int64.self, $0) }, { checkGATTValue(Bool.self, $0) },
    { checkGATTValue(Temperature.self, $0) }, { checkGATTValue(TemperatureUnit.self, $0) },
    { checkGATTValue(BatteryLevel.self, $0) }, { checkGATTValue(SensorTagBarometerData.self, $0) },
    { checkGATTValue(SensorTagKeys.self, $0) }, { checkGATTValue(SensorTagBarometerCalibration.self, $0) },
    { checkGATTValue(SensorTagPeriod.self, $0) }, { checkGATTValue(SensorTagAngularVelocity.self, $0) },
    { checkGATTValue(SensorTagMagneticField.self, $0) }, { checkGATTValue(SensorTagIRTemperature.self, $0) },
    { checkGATTValue(SensorTagHumidity.self, $0) }, { checkGATTValue(SensorTagConfiguration.self, $0) },
    { checkGATTValue(SensorTagAcceleration.self, $0) }, { checkGATTValue(SystemID.self, $0) },
    { checkGATTValue(PnPID.self, $0) },
]

/// Decodes `bytes` as `Value` and checks the round trip on the encoded bytes.
private func checkGATTValue<Value: GATTValue>(_ type: Value.Type, _ bytes: [UInt8]) {
    let name = "gatt-value \(Value.self)"
    let value: Value
    do throws(AirlinkError) {
        value = try Value(gattBytes: bytes)
    } catch {
        guard error.code == .malformedData else { violated(name, "decoding threw \(error.code), not malformedData") }
        return
    }
    let encoded = value.gattBytes
    do {
        let again = try Value(gattBytes: encoded)
        guard again.gattBytes == encoded else {
            violated(name, "encoding is not stable: \(encoded) decodes and encodes to \(again.gattBytes)")
        }
    } catch {
        violated(name, "\(value) encodes to \(encoded), which does not decode: \(error)")
    }
    _ = String(describing: value)
}
