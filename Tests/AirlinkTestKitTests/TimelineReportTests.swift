import AirlinkCore
import AirlinkTestKit
import Foundation
import Testing

@Suite struct TimelineReportTests {
    @Test func theReportNeedsNothingFromTheNetworkAndShowsEveryLane() async throws {
        // Given the report of a scenario with losses and notifications
        let result = try await ScenarioRunner().run(
            try Scenario.load(path: ShippedScenarios.path("notifications-restored.yaml")))

        // When it is built
        let html = TimelineReport(result: result).html

        // Then it has no script and no external resource, six lanes per device, and the expectations
        #expect(!html.contains("<script"))
        // http:// appears once at most: the SVG namespace
        #expect(!html.contains("http://") || html.components(separatedBy: "http://").count == 2)
        #expect(!html.contains("https://"))
        #expect(html.components(separatedBy: "class=\"lane\"").count - 1 == 6 * result.devices.count)
        #expect(html.components(separatedBy: "class=\"rate\"").count - 1 > 10)
        #expect(html.contains("class=\"attempt\""))
    }

    @Test(.enabled(if: ExternalTool.path("chromium") != nil, "needs chromium (Scripts/bootstrap installs it)"))
    func headlessChromiumRendersTheLanes() async throws {
        // Given a report written to a file, and a blank page for comparison
        let result = try await ScenarioRunner().run(
            try Scenario.load(path: ShippedScenarios.path("notifications-restored.yaml")))
        let page = ExternalTool.temporaryPath("report.html")
        let blank = ExternalTool.temporaryPath("blank.html")
        let shot = ExternalTool.temporaryPath("report.png")
        let blankShot = ExternalTool.temporaryPath("blank.png")
        defer { for path in [page, blank, shot, blankShot] { try? FileManager.default.removeItem(atPath: path) } }
        try BinaryFile.write(Array(TimelineReport(result: result).html.utf8), to: page)
        try BinaryFile.write(Array("<!DOCTYPE html><html><body></body></html>".utf8), to: blank)
        let chromium = ExternalTool.path("chromium")!
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,800"]

        // When Chromium renders it and dumps its DOM
        _ = try await ExternalTool.run(chromium, flags + ["--screenshot=\(shot)", "file://\(page)"])
        _ = try await ExternalTool.run(chromium, flags + ["--screenshot=\(blankShot)", "file://\(blank)"])
        let dom = try await ExternalTool.run(chromium, flags + ["--dump-dom", "file://\(page)"]).output

        // Then the screenshot exists and is not blank, and the rendered DOM has the timeline's lanes
        let size = (try FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
        let blankSize = (try FileManager.default.attributesOfItem(atPath: blankShot)[.size] as? Int) ?? 0
        #expect(size > 3 * max(blankSize, 1000), "screenshot \(size) bytes, blank page \(blankSize) bytes")
        for lane in ["advertising", "connection", "faults", "reconnection", "notifications", "rssi"] {
            #expect(dom.contains("data-lane=\"\(lane)\""))
        }
        #expect(dom.contains("<svg id=\"timeline\""))
        #expect(dom.contains("id=\"expectations\""))
    }
}
