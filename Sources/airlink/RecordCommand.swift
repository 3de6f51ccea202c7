import AirlinkCore
import AirlinkRegistry
import AirlinkTestKit
import ArgumentParser
import Foundation

/// `airlink record DEVICE`: records a device's advertising, GATT database, values and notifications to a
/// YAML file the virtual radio replays (`--transport sim:FILE`, `recorded:` in a scenario's world).
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a device (advertising, database, values, notifications) for the virtual radio to replay.",
        discussion: """
            Watches the device's advertising and scan responses, connects, makes the --write writes (each \
            recorded with the device's answer and the notifications within --write-window), reads every \
            readable characteristic and descriptor once (a refused read is recorded with its ATT error), \
            subscribes and records the notifications for --duration. Writes the recording (YAML, the scenario \
            world format) to --out and the raw capture beside it (.capture.jsonl). Replay it with --transport sim:FILE.
              airlink record BC:6A:29:00:00:03 --duration 10s --write F000AA02-0451-4000-B000-000000000000=01
              airlink record C0:FF:EE:00:00:01 --transport bluez --redact address --out devices/thermostat.yaml
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The device's address (see airlink scan).")
    var device: String

    @Option(
        name: .long, parsing: .unconditional,
        help: "How long to record notifications after subscribing: 60s (virtual time on sim, at most 10m).")
    var duration: String = "60s"

    @Option(name: .long, parsing: .unconditional, help: "How long to watch the advertising before connecting: 2s.")
    var advertising: String = "2s"

    @Option(
        name: .long,
        help: "What to subscribe to: all (every characteristic that notifies or indicates) or UUIDs, comma-separated.")
    var subscribe: String = "all"

    @Option(
        name: .long, parsing: .unconditionalSingleValue,
        help: "A write made before subscribing, UUID=HEX (repeatable), to drive the device: turn a sensor on.")
    var write: [String] = []

    @Option(
        name: .customLong("write-window"), parsing: .unconditional,
        help: ArgumentHelp(
            "How long after each --write its notifications belong to it (replayed after the same write): 1s; "
                + "0s keeps them all in the session."))
    var writeWindow: String = "1s"

    @Option(
        name: .customLong("read-interval"), parsing: .unconditional,
        help: "Read every readable characteristic again this often while recording (once by default).")
    var readInterval: String?

    @Option(name: .long, help: "What to redact: address, serial or a characteristic UUID (repeatable).")
    var redact: [String] = []

    @Option(name: .long, help: "The recording's path; the raw capture goes beside it. Default: devices/NAME.yaml.")
    var out: String?

    func validate() throws {
        _ = try Arguments.device(device)
        let maximum = DurationArgument.maximum(on: global)
        _ = try DurationArgument.parse(duration, flag: "--duration", maximum: maximum)
        _ = try DurationArgument.parse(advertising, flag: "--advertising", maximum: maximum)
        _ = try DurationArgument.parse(writeWindow, flag: "--write-window", maximum: maximum, zero: true)
        _ = try options()
        if let out, !out.hasSuffix(".yaml") {
            throw ValidationError("--out \(out) is not a .yaml path: write one such as devices/thermostat.yaml")
        }
        // The recording and the capture beside it, checked before the session rather than after it
        for path in out.map({ [$0, Self.capturePath(for: $0)] }) ?? [] {
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFCHR,
                let kind = InputFile.nonRegularKind(info.st_mode)
            {
                throw ValidationError("--out \(out ?? ""): \(path) is \(kind); give the path of a .yaml file to write")
            }
        }
    }

    /// The raw capture's path beside the recording's: `devices/x.yaml` → `devices/x.capture.jsonl`.
    static func capturePath(for path: String) -> String { String(path.dropLast(".yaml".count)) + ".capture.jsonl" }

    /// The recording options the flags describe.
    private func options() throws -> RecordingOptions {
        var options = RecordingOptions(
            advertisingWindow: try DurationArgument.parse(advertising, flag: "--advertising"),
            duration: try DurationArgument.parse(duration, flag: "--duration"),
            readInterval: try readInterval.map { try DurationArgument.parse($0, flag: "--read-interval") },
            writeWindow: try DurationArgument.parse(writeWindow, flag: "--write-window", zero: true))
        if subscribe.lowercased() != "all" {
            options.subscribe = .uuids(
                try subscribe.split(separator: ",", omittingEmptySubsequences: false).map { text in
                    guard !text.isEmpty else {
                        throw ValidationError(
                            "--subscribe \"\(subscribe)\" names an empty UUID: write all, or UUIDs such as 2A19,2A37")
                    }
                    guard let uuid = BluetoothUUID(String(text)) else {
                        throw ValidationError(
                            "--subscribe \(text) is not a UUID: write all, or UUIDs such as 2A19,2A37")
                    }
                    return uuid
                })
        }
        options.writes = try write.map { text in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let uuid = BluetoothUUID(parts[0]),
                // try?: bad hex is refused just below, with the form the flag needs.
                let value = try? GATTValueFormat.hex.bytes(of: parts[1])
            else {
                throw ValidationError(
                    "--write \(text) is not UUID=HEX: write one such as F000AA02-0451-4000-B000-000000000000=01")
            }
            // The replay's limit, checked here so that no recording is written its own replay refuses.
            guard value.count <= RecordingOptions.maximumWriteLength else {
                throw ValidationError(
                    "--write \(parts[0]): the value is \(value.count) bytes; an attribute value holds at most "
                        + "\(RecordingOptions.maximumWriteLength) (Core Spec Vol 3, Part F, 3.2.9)")
            }
            return RecordingOptions.Write(uuid: uuid, value: value)
        }
        for text in redact {
            do throws(AirlinkError) {
                options.redactions.append(try RecordingOptions.Redaction(parsing: text))
            } catch {
                throw ValidationError("--redact \(error.message)")
            }
        }
        return options
    }

    func run() async throws {
        let query = try DeviceQuery(parsing: device)
        let options = try options()
        let session = try await Session.open(global)
        defer { session.close() }
        let device = try session.resolve(query)
        let recorder = DeviceRecorder(transport: session.transport, environment: session.environment)
        let (recording, capture) = try await session.run { try await recorder.record(device, options: options) }
        let path = out ?? "devices/\(Self.fileName(recording.name)).yaml"
        let capturePath = Self.capturePath(for: path)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent.isEmpty
                ? "." : (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        do {
            try OutputFile.write(Array(recording.yaml.utf8), to: path, kind: "recording")
            try OutputFile.write(Array(capture.jsonLines.utf8), to: capturePath, kind: "capture")
        } catch {
            throw CommandFailure(error.message, status: ExitStatus.unusable)
        }
        let characteristics = recording.database.services.flatMap(\.characteristics)
        let refused = characteristics.filter { $0.value?.error != nil }.count
        print(
            "recorded \(recording.name) (\(recording.id)): \(recording.database.services.count) services, "
                + "\(characteristics.count) characteristics (\(refused) reads refused), "
                + "\(recording.session.notifications.count) notifications"
                + (recording.session.writes.isEmpty
                    ? "" : ", \(recording.session.writes.count) write\(recording.session.writes.count == 1 ? "" : "s")")
                + " in \(recording.session.duration.text)")
        print("wrote \(path) and \(capturePath); replay it with --transport sim:\(path)")
    }

    /// `Living room` → `living-room`: the name as a file name.
    static func fileName(_ name: String) -> String {
        let kept = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let text = String(kept).split(separator: "-").joined(separator: "-")
        return text.isEmpty ? "device" : text
    }
}
