import Airlink
import AirlinkCore
import ArgumentParser

/// `airlink inspect`: publishes values over Bluetooth as an inspector.
///
/// On the simulated world both ends must share one simulation, so `--demo` runs an inspector and an
/// observer together and prints their exchange. Publishing `--value`s for other apps needs a real
/// adapter (`--transport bluez`): the values are kept by the inspector, readable, writable (checked
/// against their type) and notified.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Publish values as an inspector; --demo runs an inspector and an observer in one simulation.",
        discussion: """
            airlink inspect --demo
            airlink inspect --demo --protect label
            airlink inspect --transport bluez --name "Test Server" --value temperature=21.5 --value enabled=true
            airlink inspect --transport bluez --value code=1234 --protect code:authenticated
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Run an inspector and an observer together in one simulation and show their exchange.")
    var demo = false

    @Option(name: .long, help: "The inspector's advertised name (at most 19 bytes).")
    var name: String = "Test Server"

    @Option(
        name: .long, help: "A value to publish, IDENTIFIER=VALUE (true/false, integer, decimal or text); repeatable.")
    var value: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A value centrals read and write only after pairing: NAME (encrypted link) or NAME:authenticated "
                + "(a passkey); repeatable.", valueName: "name[:authenticated]"))
    var protect: [String] = []

    @Option(
        name: .long, parsing: .unconditional,
        help: "How long to run: the demo in virtual time (7s by default); on BlueZ until interrupted by default.")
    var duration: String?

    func validate() throws {
        if let duration {
            _ = try DurationArgument.parse(duration, flag: "--duration", maximum: DurationArgument.maximum(on: global))
        }
        let length = name.utf8.count
        guard length > 0, length <= InspectorLayout.maximumNameLength else {
            throw ValidationError(
                "--name \"\(name)\" is \(length) bytes; write 1 to \(InspectorLayout.maximumNameLength), what fits "
                    + "an advertisement beside the inspector marker")
        }
        var identifiers: [String] = []
        for text in value {
            let argument = try InspectArgument(parsing: text)
            guard !identifiers.contains(argument.identifier) else {
                throw ValidationError("--value \(argument.identifier) is given twice; give each identifier once")
            }
            identifiers.append(argument.identifier)
        }
        if demo, !value.isEmpty {
            throw ValidationError("--demo publishes its own values; drop --value, or drop --demo to publish yours")
        }
        _ = try ProtectArgument.protections(protect, among: demo ? InspectorDemo.identifiers : identifiers)
        let specifier = try global.specifier()
        if !demo, case .bluez = specifier {
            if value.isEmpty { throw ValidationError("give at least one --value IDENTIFIER=VALUE to publish") }
            return
        }
        if !demo {
            // The simulated world: the two ends must share one simulation, which only --demo builds.
            throw ValidationError(
                "on --transport \(specifier) an inspector is seen only by centrals of the same simulation, "
                    + "so publishing --value for other processes needs a real adapter (--transport bluez). "
                    + "Run `airlink inspect --demo` to see an inspector and an observer together."
            )
        }
    }

    func run() async throws {
        if !demo, case .bluez(let adapter) = try global.specifier() {
            return try await runOnBlueZ(adapter: adapter ?? "hci0")
        }
        let protections = try ProtectArgument.protections(protect, among: InspectorDemo.identifiers)
        let demo = try InspectorDemo(seed: global.seed, name: name, protections: protections)
        let followFor =
            try duration.map { text throws(ValidationError) in
                try DurationArgument.parse(text, flag: "--duration")
            } ?? .seconds(7)
        let writes = demo.inspector.events()
        let centrals = demo.sim.radio.peripheralEvents()
        let json = global.json
        func show(_ line: InspectorOutput.ExchangeLine) { emit(json ? Output.jsonLine(line) : line.text) }
        let log = ExchangeLog()
        if !protections.isEmpty {
            try demo.inspector.setSecurity(
                ProtectArgument.security(for: protections) { log.append(demo.line("\($0)")) })
        }
        try await demo.start()
        show(
            demo.line(
                "inspector \"\(demo.inspector.name)\" publishes "
                    + "\(demo.inspector.identifiers.joined(separator: ", "))")
        )
        demo.sim.spawn {
            for await event in centrals {
                switch event {
                case .pairingRequested, .paired, .pairingFailed:
                    log.append(demo.line("inspector: \(Self.pairingLine(event))"))
                case .centralConnected, .subscriptionChanged, .centralDisconnected: break
                }
            }
        }
        demo.sim.spawn {
            for await event in writes {
                switch event {
                case .written(let identifier, let value):
                    log.append(demo.line("inspector: a central wrote \(identifier) = \(value)"))
                case .refused(let identifier, let error):
                    log.append(demo.line("inspector: refused a write to \(identifier): \(error)"))
                }
            }
        }
        let lines = try await demo.sim.run { () async throws -> [InspectorOutput.ExchangeLine] in
            var lines: [InspectorOutput.ExchangeLine] {
                get { log.lines }
                set { log.lines = newValue }
            }
            let found = try await demo.observer.discover(named: demo.inspector.name, timeout: .seconds(5))
            guard let first = found.first else { return [demo.line("observer found no inspector")] }
            lines.append(demo.line("observer found \(first)"))
            let inspector = try await demo.observer.connect(to: first.id)
            for value in inspector.values {
                let current = try await Self.read(value, of: inspector, pairing: protections, log: log, demo: demo)
                lines.append(demo.line("observer reads \(value.identifier) (\(value.type)) = \(current)"))
            }
            let changes = try await inspector.changes()
            try await inspector.write(false, to: "enabled")
            lines.append(demo.line("observer writes enabled = false"))
            do {
                try await inspector.writeBytes([7], to: "enabled")
            } catch let error as AirlinkError {
                lines.append(
                    demo.line(
                        "observer writes 0x07 to enabled: refused, "
                            + "\(error.attError.map { "\($0)" } ?? error.message)")
                )
            }
            let end = demo.sim.now.advanced(by: followFor)
            for await change in changes {
                lines.append(demo.line("observer notified \(change)"))
                if demo.sim.now >= end { break }
            }
            await inspector.disconnect()
            return lines
        }
        for line in lines { show(line) }
        await demo.inspector.stop()
        show(demo.line("inspector's view: enabled = \(demo.room.enabled), temperature = \(demo.room.temperature)"))
    }
}

extension InspectCommand {
    /// Reads a value for the demo's observer; a value refused for want of security (0x05, 0x0F) is printed
    /// as refused, then the observer pairs (typing the passkey the inspector shows, when it shows one) and
    /// reads it again.
    static func read(
        _ value: ObservedValue, of inspector: ObservedInspector, pairing protections: [String: InspectionOptions],
        log: ExchangeLog, demo: InspectorDemo
    ) async throws(AirlinkError) -> InspectedValue {
        let refusal: ATTError
        do throws(AirlinkError) {
            return try await inspector.read(value.identifier)
        } catch {
            guard let attError = error.attError,
                attError == .insufficientEncryption || attError == .insufficientAuthentication
            else { throw error }
            refusal = attError
        }
        log.append(demo.line("observer reads \(value.identifier): refused, \(refusal)"))
        let mitm = protections.values.contains(.authenticationRequired)
        let result = try await inspector.connection.pair(
            features: PairingFeatures(io: mitm ? .keyboardOnly : .keyboardDisplay, mitm: mitm), agent: .attentive)
        log.append(demo.line("observer paired: \(result.method.map { "\($0), " } ?? "")\(result)"))
        return try await inspector.read(value.identifier)
    }
}

/// The lines of the demo's exchange, from both ends, in virtual-time order.
final class ExchangeLog: @unchecked Sendable {
    // @unchecked: used only from the simulation's executor.
    var lines: [InspectorOutput.ExchangeLine] = []
    func append(_ line: InspectorOutput.ExchangeLine) { lines.append(line) }
}

/// One `--value IDENTIFIER=VALUE`, typed: `true`/`false` → Bool, an integer → Int, a decimal → Double,
/// anything else → String.
struct InspectArgument: Equatable {
    var identifier: String
    var value: InspectedValue

    init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ValidationError("--value \"\(text)\" needs the form IDENTIFIER=VALUE, such as temperature=21.5")
        }
        identifier = String(text[..<equals])
        let raw = String(text[text.index(after: equals)...])
        if raw == "true" || raw == "false" {
            value = .bool(raw == "true")
        } else if let integer = Int64(raw) {
            value = .signed(integer, bits: 64)
        } else if let double = Double(raw) {
            value = .double(double)
        } else {
            value = .string(raw)
        }
    }
}
