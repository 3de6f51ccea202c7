import Airlink
import AirlinkCore
import AirlinkSimulation

/// A self-contained HTML page of a run: an SVG timeline with a lane per device for advertising,
/// connection state, faults, reconnection attempts, notifications (rate per second) and RSSI, and the
/// expectations with whether they held. No network, no scripts.
public struct TimelineReport: Sendable {
    /// The whole HTML page, ready to write to a file.
    public private(set) var html: String

    private static let laneNames = ["advertising", "connection", "faults", "reconnection", "notifications", "rssi"]
    private static let laneHeight = 26.0
    private static let left = 150.0
    private static let width = 1000.0

    /// Builds the page of a run.
    public init(result: ScenarioResult) {
        let end = max(result.duration.seconds, 0.001)
        func x(_ seconds: Double) -> Double { Self.left + min(max(seconds, 0), end) / end * Self.width }
        let records = result.trace.records
        var svg: [String] = []
        var y = 30.0
        // The time axis.
        let step = Self.tickStep(end)
        var tick = 0.0
        while tick <= end + 1e-9 {
            svg.append(
                "<line x1=\"\(x(tick))\" y1=\"20\" x2=\"\(x(tick))\" y2=\"TOTAL\" class=\"grid\"/>"
                    + "<text x=\"\(x(tick))\" y=\"14\" class=\"tick\">\(Self.number(tick))s</text>")
            tick += step
        }
        for device in result.devices {
            let id = device.id.description
            svg.append("<text x=\"4\" y=\"\(y + 14)\" class=\"device\">\(Self.escape(device.name)) \(id)</text>")
            y += 20
            for lane in Self.laneNames {
                svg.append("<g class=\"lane\" data-lane=\"\(lane)\" data-device=\"\(id)\">")
                svg.append(
                    "<rect x=\"\(Self.left)\" y=\"\(y)\" width=\"\(Self.width)\" "
                        + "height=\"\(Self.laneHeight - 4)\" class=\"bg\"/>"
                )
                svg.append("<text x=\"12\" y=\"\(y + 15)\" class=\"label\">\(lane)</text>")
                let top = y
                let bottom = y + Self.laneHeight - 4
                switch lane {
                case "advertising":
                    for (time, _) in Self.heard(device.id, in: records) {
                        svg.append(
                            "<line x1=\"\(x(time))\" y1=\"\(top + 3)\" x2=\"\(x(time))\" "
                                + "y2=\"\(bottom - 3)\" class=\"adv\"/>")
                    }
                case "connection":
                    var start: Double?
                    for record in result.events where record.event.device == device.id {
                        guard case .connection(_, let event) = record.event else { continue }
                        let time = record.time.seconds
                        switch event {
                        case .connected, .reconnected: start = start ?? time
                        case .lost, .terminated, .gaveUp:
                            if let begin = start {
                                svg.append(Self.bar(x(begin), x(time), top, bottom, "up", "connected"))
                            }
                            start = nil
                        default: break
                        }
                    }
                    if let begin = start { svg.append(Self.bar(x(begin), x(end), top, bottom, "up", "connected")) }
                case "faults":
                    for (time, text) in Self.faults(of: device, in: records) {
                        svg.append(
                            "<circle cx=\"\(x(time))\" cy=\"\(top + 11)\" r=\"5\" class=\"fault\"><title>"
                                + "t=\(Self.number(time)) \(Self.escape(text))</title></circle>")
                    }
                case "reconnection":
                    for record in result.events where record.event.device == device.id {
                        guard case .connection(_, let event) = record.event else { continue }
                        let cls: String
                        switch event {
                        case .willReconnect: cls = "attempt"
                        case .reconnected: cls = "reconnected"
                        case .gaveUp: cls = "gaveup"
                        default: continue
                        }
                        svg.append(
                            "<rect x=\"\(x(record.time.seconds) - 3)\" y=\"\(top + 4)\" "
                                + "width=\"6\" height=\"14\" class=\"\(cls)\">"
                                + "<title>t=\(Self.number(record.time.seconds)) "
                                + "\(Self.escape(event.description))</title></rect>"
                        )
                    }
                case "notifications":
                    var perSecond: [Int] = Array(repeating: 0, count: Int(end.rounded(.up)) + 1)
                    for value in result.values where value.notified && value.device == device.id {
                        perSecond[min(Int(value.time.seconds), perSecond.count - 1)] += 1
                    }
                    let peak = max(perSecond.max() ?? 1, 1)
                    for (second, count) in perSecond.enumerated() where count > 0 {
                        let height = Double(count) / Double(peak) * (bottom - top - 2)
                        svg.append(
                            "<rect x=\"\(x(Double(second)))\" y=\"\(bottom - height)\" "
                                + "width=\"\(max(x(Double(second + 1)) - x(Double(second)) - 1, 1))\" "
                                + "height=\"\(height)\" class=\"rate\"><title>\(count)/s at t=\(second)s</title></rect>"
                        )
                    }
                default:
                    for (time, heardRSSI) in Self.heard(device.id, in: records) {
                        let rssi = Double(heardRSSI)
                        let level = (min(max(rssi, -100), -30) + 100) / 70
                        svg.append(
                            "<circle cx=\"\(x(time))\" cy=\"\(bottom - 2 - level * (bottom - top - 4))\" r=\"2\" "
                                + "class=\"rssi\"><title>\(Int(rssi)) dBm</title></circle>"
                        )
                    }
                }
                svg.append("</g>")
                y += Self.laneHeight
            }
            y += 10
        }
        let total = y
        let body = svg.joined(separator: "\n").replacingOccurrences(of: "TOTAL", with: "\(total)")
        var rows: [String] = []
        for expectation in result.expectations {
            rows.append(
                "<tr class=\"\(expectation.held ? "held" : "failed")\"><td>\(expectation.held ? "held" : "FAILED")</td>"
                    + "<td>\(Self.escape(expectation.description))</td><td>\(Self.escape(expectation.reason))</td></tr>"
            )
        }
        for violation in result.violations {
            rows.append("<tr class=\"failed\"><td>invariant</td><td colspan=\"2\">\(Self.escape(violation))</td></tr>")
        }
        html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(Self.escape(result.name)) (seed \(result.seed))</title>
            <style>
            body { font: 13px sans-serif; margin: 16px; color: #222; }
            .grid { stroke: #ddd; } .tick { font-size: 10px; text-anchor: middle; fill: #666; }
            .device { font-weight: bold; } .label { font-size: 11px; fill: #444; } .bg { fill: #f6f6f6; }
            .adv { stroke: #7a7; } .up { fill: #4a8; } .fault { fill: #d33; } .attempt { fill: #e90; }
            .reconnected { fill: #4a8; } .gaveup { fill: #900; } .rate { fill: #48c; } .rssi { fill: #639; }
            table { border-collapse: collapse; margin-top: 12px; } td { border: 1px solid #ccc; padding: 3px 6px; }
            tr.held td:first-child { color: #080; } tr.failed td:first-child { color: #c00; font-weight: bold; }
            </style></head><body>
            <h1>\(Self.escape(result.name))</h1>
            <p>seed \(result.seed), \(Self.number(end)) s of virtual time, \(result.passed ? "PASSED" : "FAILED")</p>
            <svg id="timeline" xmlns="http://www.w3.org/2000/svg" \
            width="\(Self.left + Self.width + 20)" height="\(total + 10)">
            \(body)
            </svg>
            <table id="expectations"><tr><th></th><th>expectation</th><th>observed</th></tr>
            \(rows.joined(separator: "\n"))
            </table>
            </body></html>

            """
    }

    /// The times (in seconds) and RSSIs of the first central's `scan` records of a device.
    private static func heard(_ device: DeviceID, in records: [TraceRecord]) -> [(Double, Int8)] {
        records.compactMap { record in
            guard case .advertisementHeard(0, device, _, let rssi, _, _) = record.event else { return nil }
            return (seconds(record.time), rssi)
        }
    }

    /// The times (in seconds) and texts of a device's faults and of the scenario's actions on it or
    /// on the adapter.
    private static func faults(of device: ScenarioResult.Device, in records: [TraceRecord]) -> [(Double, String)] {
        let id = device.id.description
        return records.compactMap { record in
            guard case .line(let category, let text) = record.event else { return nil }
            let onDevice = category == "fault" && text.prefix { $0 != " " } == id
            let scenario = category == "scenario" && (text.contains(device.name) || text.contains("Adapter"))
            return onDevice || scenario ? (seconds(record.time), text) : nil
        }
    }

    /// A record's time in seconds, to the microsecond, as the trace prints it.
    private static func seconds(_ time: AirlinkInstant) -> Double {
        Double(time.offset.nanoseconds / 1_000) / 1_000_000
    }

    private static func bar(_ x1: Double, _ x2: Double, _ top: Double, _ bottom: Double, _ cls: String, _ title: String)
        -> String
    {
        "<rect x=\"\(x1)\" y=\"\(top + 4)\" width=\"\(max(x2 - x1, 1))\" height=\"\(bottom - top - 8)\" "
            + "class=\"\(cls)\"><title>\(title)</title></rect>"
    }

    private static func tickStep(_ end: Double) -> Double {
        for step in [1.0, 2, 5, 10, 20, 30, 60, 120, 300, 600] where end / step <= 15 { return step }
        return 3600
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\((value * 1000).rounded() / 1000)"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
