import AirlinkCore
import AirlinkHCI
import AirlinkProfiles
import AirlinkSimulation
import AirlinkTestKit
import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `airlink controller`: the built-in world behind an HCI controller (H4 over TCP or a Unix socket), for
/// Bumble, BlueZ or Zephyr hosts (Docs/HCIController.md).
struct ControllerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "controller",
        abstract: "Serve the simulated world as an HCI controller (H4 over TCP, a Unix socket, a pty or /dev/vhci).",
        discussion: """
            A host (Bumble's tcp-client:127.0.0.1:PORT or unix:PATH transport) scans, connects and speaks ATT \
            to the thermostat, the battery and the SensorTag. The simulation runs paced to the wall clock; \
            the trace is printed as it goes. Runs until interrupted. See Docs/HCIController.md.
            """)

    @Option(name: .long, help: "Listen on 127.0.0.1:PORT (the default: 9000).")
    var tcp: UInt16?

    @Option(name: .long, help: "Listen on a Unix socket at PATH instead of TCP.")
    var unix: String?

    @Flag(name: .long, help: "Speak H4 on a new pseudo-terminal instead; its path is printed (serial:PATH).")
    var pty = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Become a controller of this machine's Linux kernel through /dev/vhci (module hci_vhci): every "
                + "Bluetooth app sees the world as an adapter, hciN. Needs root or a udev rule."))
    var vhci = false

    @Option(name: .customLong("vhci-device"), help: "The virtual HCI device --vhci opens.")
    var vhciDevice = "/dev/vhci"

    @Option(
        name: .long,
        help: "Serve the world of this scenario (YAML) instead of the built-in one, with its timeline of faults.")
    var world: String?

    @Option(name: .long, parsing: .unconditional, help: "The simulation's seed.")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Write the HCI traffic as a btsnoop file (Wireshark, tshark).")
    var btsnoop: String?

    @Option(
        name: .customLong("drop-link"),
        help: ArgumentHelp(
            "DEVICE@SECONDS[/REASON]: the peripheral drops its link SECONDS after a host's link to it comes up, "
                + "with an HCI reason (hex, 0x08 by default). Repeatable."))
    var dropLinks: [String] = []

    @Option(
        name: .customLong("notify-burst"),
        help: ArgumentHelp(
            "DEVICE@SECONDS/COUNT/UUID: the peripheral sends COUNT notifications of the characteristic UUID at once, "
                + "SECONDS after a host's link to it comes up (throughput figures). Repeatable."))
    var bursts: [String] = []

    func validate() throws {
        if [tcp != nil, unix != nil, pty, vhci].filter({ $0 }).count > 1 {
            throw ValidationError("--tcp, --unix, --pty and --vhci exclude each other: pass one")
        }
        _ = try actions()
    }

    /// Adds the world: the scenario's (`--world`) or the built-in one.
    private func populate(_ simulation: Simulation) throws(AirlinkError) {
        guard let world else {
            _ = try simulation.add(SimulatedWorld.builtIn)
            return
        }
        let scenario = try Scenario.load(path: world)
        // Its timeline counts from the controller's start, paced to the wall clock, like a run's from t=0.
        _ = try scenario.serve(in: simulation)
    }

    /// The link actions `--drop-link` and `--notify-burst` name.
    func actions() throws -> [HCIControllerServer.LinkAction] {
        try dropLinks.map(Self.parseLoss) + bursts.map(Self.parseBurst)
    }

    static func parseBurst(_ text: String) throws -> HCIControllerServer.LinkAction {
        let usage = "write DEVICE@SECONDS/COUNT/UUID, such as B4:77:E2:00:00:02@3/2000/2A19"
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let fields =
            parts.count == 2 ? parts[1].split(separator: "/", omittingEmptySubsequences: false).map(String.init) : []
        guard parts.count == 2, let device = DeviceID(parts[0]), fields.count == 3, let seconds = Double(fields[0]),
            seconds >= 0, seconds <= 86_400, let count = Int(fields[1]), (1...100_000).contains(count),
            let uuid = BluetoothUUID(fields[2])
        else {
            throw ValidationError("--notify-burst \"\(text)\" is not a burst: \(usage)")
        }
        return .burst(device, after: .milliseconds(Int64(seconds * 1_000)), count: count, of: uuid)
    }

    static func parseLoss(_ text: String) throws -> HCIControllerServer.LinkAction {
        let usage = "write DEVICE@SECONDS[/REASON], such as C0:FF:EE:00:00:01@2/0x08"
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let device = DeviceID(parts[0]) else {
            throw ValidationError("--drop-link \"\(text)\" names no device: \(usage)")
        }
        // Empty fields are kept ("@/" is an empty delay, "@2/" an empty reason), so `timing` is never empty.
        let timing = parts[1].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let seconds = timing.first.flatMap(Double.init), seconds >= 0, seconds <= 86_400 else {
            throw ValidationError("--drop-link \"\(text)\" has no delay in seconds from 0 to 86400: \(usage)")
        }
        var reason = DisconnectionReason.supervisionTimeout
        if timing.count == 2 {
            let digits = timing[1].hasPrefix("0x") ? String(timing[1].dropFirst(2)) : timing[1]
            guard let code = UInt8(digits, radix: 16), code != 0 else {
                throw ValidationError("--drop-link \"\(text)\" has a reason that is no HCI error code: \(usage)")
            }
            reason = DisconnectionReason(rawValue: code)
        }
        return .dropLink(device, after: .milliseconds(Int64(seconds * 1_000)), reason: reason)
    }

    func run() async throws {
        let simulation = Simulation(seed: seed)
        let server: HCIControllerServer
        do {
            try populate(simulation)
            let endpoint: HostEndpoint =
                vhci
                ? .vhci(path: vhciDevice, index: nil)
                : pty ? .pty(path: nil) : unix.map { .unix(path: $0) } ?? .tcp(port: tcp ?? 9000)
            server = try HCIControllerServer(
                simulation: simulation, endpoint: endpoint, btsnoop: btsnoop, actions: try actions(),
                output: { line in
                    print(line.escapingControlCharacters(keepingNewlines: false))
                    fflush(nil)
                })
        } catch let error as AirlinkError {
            // A world file, an endpoint or a capture path the user typed: fix it and run again.
            throw CommandFailure(error.message, status: ExitStatus.usage)
        }
        try await server.run()
    }
}
