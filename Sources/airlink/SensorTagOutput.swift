import AirlinkProfiles
import Foundation

/// How `airlink sensortag` prints readings: a JSON line each, or a table of the latest values.
enum SensorTagOutput {
    /// One reading as a JSON object on one line, with the virtual time in seconds.
    static func jsonLine(_ reading: SensorTagReading, time: Seconds) -> String {
        struct Line: Encodable {
            var time: Seconds
            var sensor: String
            var values: [String: Double]
            var keys: [String]?
        }
        let line = Line(
            time: time, sensor: reading.name, values: values(reading),
            keys: {
                if case .keys(let keys) = reading { return keyNames(keys) } else { return nil }
            }())
        return Output.jsonLine(line)
    }

    /// The decoded values of a reading, named with their unit.
    static func values(_ reading: SensorTagReading) -> [String: Double] {
        switch reading {
        case .irTemperature(let value):
            ["objectCelsius": value.objectCelsius, "ambientCelsius": value.ambientCelsius]
        case .humidity(let value):
            ["temperatureCelsius": value.temperatureCelsius, "relativeHumidityPercent": value.relativeHumidity]
        case .barometer(let value):
            ["temperatureCelsius": value.temperatureCelsius, "pressurePascals": value.pressurePascals]
        case .accelerometer(let value):
            ["xG": value.g.x, "yG": value.g.y, "zG": value.g.z]
        case .magnetometer(let value):
            ["xMicrotesla": value.microtesla.x, "yMicrotesla": value.microtesla.y, "zMicrotesla": value.microtesla.z]
        case .gyroscope(let value):
            [
                "xDegreesPerSecond": value.degreesPerSecond.x, "yDegreesPerSecond": value.degreesPerSecond.y,
                "zDegreesPerSecond": value.degreesPerSecond.z,
            ]
        case .keys:
            [:]
        }
    }

    /// The names of the keys held down.
    static func keyNames(_ keys: SensorTagKeys) -> [String] {
        [(SensorTagKeys.left, "left"), (.right, "right"), (.side, "side")].filter { keys.contains($0.0) }.map(\.1)
    }

    /// The table of the latest readings: one row per sensor and the keys.
    static func table(_ latest: [String: SensorTagReading], time: Seconds) -> [String] {
        let rows = SensorTagSensor.allCases.map(\.rawValue) + ["keys"]
        let width = rows.map(\.count).max() ?? 0
        return ["t = \(time) s"]
            + rows.map { name in
                let padded = name + String(repeating: " ", count: width - name.count)
                let text = latest[name].map { "\($0)".dropFirst(name.count + 2) } ?? "—"
                return "  \(padded)  \(text)"
            }
    }
}
