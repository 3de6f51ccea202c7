import Airlink
import AirlinkCore
import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `airlink scan`: lists the devices that advertise, with RSSI and advertised services.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan", abstract: "Scan for advertising devices and list them.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, parsing: .unconditional, help: "How long to scan: 500ms, 5s, 2m (at most 10m on sim).")
    var timeout: String = "5s"

    @Option(name: .long, help: "Only devices whose name matches this regular expression.")
    var name: String?

    @Option(name: .long, help: "Only devices advertising this service (UUID or name such as battery); repeatable.")
    var service: [String] = []

    @Flag(
        name: .long,
        help: "Only listen: ask no device for its scan response (complete names often come in it); sim only.")
    var passive = false

    func validate() throws {
        _ = try DurationArgument.parse(timeout, flag: "--timeout", maximum: DurationArgument.maximum(on: global))
        if let name {
            do { try NamePattern.check(name) } catch { throw ValidationError("--name: \(error.message)") }
        }
        for text in service {
            do { _ = try BluetoothUUID(named: text) } catch { throw ValidationError(error.message) }
        }
        // try?: a bad --transport is refused by its own validation.
        if passive, case .bluez = try? global.specifier() {
            throw ValidationError(
                "--passive works on --transport sim only: BlueZ's discovery always scans actively (leave out "
                    + "--passive)")
        }
    }

    func run() async throws {
        let duration = try DurationArgument.parse(timeout, flag: "--timeout")
        let services = try service.map { text throws(AirlinkError) in try BluetoothUUID(named: text) }
        let session = try await Session.open(global)
        defer { session.close() }
        let devices = try await ScanRun.run(
            in: session, duration: duration, name: name, services: services.isEmpty ? nil : services,
            active: !passive
        ) { progress in
            if duration >= .seconds(2), standardErrorIsTerminal {
                writeError(
                    "scanning… \(seconds(progress.elapsed)) of \(seconds(duration)), \(progress.devices) device(s)")
            }
        }
        print(global.json ? ScanOutput.json(devices) : ScanOutput.table(devices))
        if !global.json, devices.contains(where: { $0.id.addressType == .random }) { print(Self.randomNote) }
    }

    /// Said under a table holding a random address, where a user first meets the suffix.
    static let randomNote =
        "\n/random: a random address (the device chose it); commands take the id with or without the suffix."
}

/// `2.5s`, `0.000001s`: to the microsecond (``/AirlinkCore/Duration/text``).
func seconds(_ duration: Duration) -> String { duration.text }

/// Writes a line to standard error (progress, so that standard output stays clean for scripts), its
/// control characters escaped.
func writeError(_ line: String) {
    let text = line.escapingControlCharacters(keepingNewlines: true) + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}

/// Whether standard error is a terminal: progress lines are for people watching, not for logs.
var standardErrorIsTerminal: Bool { isatty(2) == 1 }
