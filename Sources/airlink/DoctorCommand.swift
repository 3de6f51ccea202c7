import AirlinkTransports
import ArgumentParser
import Foundation

/// `airlink doctor`: checks what using a real adapter needs, and says what to do about each problem.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the environment for a real adapter (BlueZ) and say what to do about each problem.",
        discussion: """
            Checks bluetoothd's version, rfkill, the D-Bus system bus, BlueZ on it, the D-Bus policy, the \
            adapters (present, powered, able to publish) and the GATT cache setting. Exits 1 when it finds a \
            problem; notes do not count.
            """)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The adapter to check: bluez or bluez:hciN (default: $AIRLINK_TRANSPORT, else bluez).",
            valueName: "transport"))
    var transport: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("bluetoothd's configuration file.", valueName: "path"))
    var mainConf = "/etc/bluetooth/main.conf"

    @Option(name: .long, help: ArgumentHelp("Where the kernel lists its radio switches.", valueName: "path"))
    var rfkill = "/sys/class/rfkill"

    @Option(name: .long, help: ArgumentHelp("The bluetoothd executable to ask for its version.", valueName: "path"))
    var bluetoothd: String?

    /// What `doctor --json` prints.
    struct Report: Encodable {
        var checks: [DoctorCheck]
        var problems: Int
    }

    func validate() throws {
        _ = try adapter()
    }

    /// The adapter named by `--transport` (or `AIRLINK_TRANSPORT`); `bluez` alone names none.
    func adapter() throws -> String? {
        let text = transport ?? ProcessInfo.processInfo.environment["AIRLINK_TRANSPORT"] ?? "bluez"
        let specifier: TransportSpecifier
        do { specifier = try TransportSpecifier(parsing: text) } catch { throw ValidationError(error.message) }
        guard case .bluez(let adapter) = specifier else {
            throw ValidationError(
                "--transport \(text): doctor checks a real adapter; write bluez or bluez:hciN (sim needs nothing)")
        }
        return adapter
    }

    func run() async throws {
        let checks = await DoctorChecks(
            busAddress: ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"], adapter: try adapter(),
            rfkill: rfkill, mainConf: mainConf,
            bluetoothd: bluetoothd.map { [$0] }
                ?? ["/usr/sbin/bluetoothd", "/usr/lib/bluetooth/bluetoothd", "/usr/libexec/bluetooth/bluetoothd"]
        ).run()
        let problems = checks.filter { $0.status == .problem }.count
        if json {
            print(Output.json(Report(checks: checks, problems: problems)))
        } else {
            for check in checks {
                emit("[\(check.status.rawValue)] \(check.name): \(check.detail)")
                if let fix = check.fix, check.status != .ok { emit("    fix: \(fix)") }
            }
            emit(problems == 0 ? "No problems found." : "\(problems) problem(s) found.")
        }
        if problems > 0 { throw ExitCode(ExitStatus.failure) }
    }
}
