import AirlinkBlueZ
import AirlinkCore
import Foundation

/// One finding of `airlink doctor`: what was checked, how it stands, and what to do about a problem.
struct DoctorCheck: Encodable, Sendable {
    /// How a check stands.
    enum Status: String, Encodable, Sendable {
        /// As Airlink needs it.
        case ok
        /// Airlink cannot use the real adapter until it is fixed.
        case problem
        /// Airlink works, but something is worse than it could be (or could not be checked).
        case note
    }

    /// What was checked: `bus`, `bluetoothd`, `adapter`, `rfkill`, `permissions`, `features`, `cache`.
    var name: String
    var status: Status
    /// What was found.
    var detail: String
    /// What to do, for a problem or a note.
    var fix: String?
}

/// The checks of `airlink doctor`, each reading one part of the environment: the D-Bus system bus and
/// BlueZ on it, the kernel's rfkill switches, bluetoothd's version and its configuration file. Every
/// path is a parameter, so that the tests point them at a fake BlueZ and at files of their own.
struct DoctorChecks: Sendable {
    /// The bus address (`DBUS_SYSTEM_BUS_ADDRESS`), or nil for the system bus.
    var busAddress: String?
    /// The adapter asked for (`bluez:hci1`), or nil for any.
    var adapter: String?
    /// Where the kernel lists its radio switches (`/sys/class/rfkill`).
    var rfkill: String
    /// bluetoothd's configuration file (`/etc/bluetooth/main.conf`).
    var mainConf: String
    /// The bluetoothd executables to ask for their version (the first that exists answers).
    var bluetoothd: [String]

    /// How long a D-Bus call may take.
    static let limit = Duration.seconds(5)

    /// Runs every check, in the order a user fixes them.
    func run() async -> [DoctorCheck] {
        var checks = [version()]
        checks += rfkillChecks()
        checks += await busChecks()
        checks.append(cacheCheck())
        return checks
    }

    /// The bus, BlueZ on it, the permission to talk to it, the adapters and what they offer.
    private func busChecks() async -> [DoctorCheck] {
        let bus: DBusConnection.Bus = busAddress.map { .address($0) } ?? .system
        let connection: DBusConnection
        do {
            connection = try DBusConnection(bus: bus)
        } catch {
            // DBUS_SYSTEM_BUS_ADDRESS, when set, is the first suspect: garbage, empty, a file, a silent socket.
            let variable = busAddress.map {
                "DBUS_SYSTEM_BUS_ADDRESS is \"\($0)\": set it to the system bus's address "
                    + "(unix:path=/run/dbus/system_bus_socket) or unset it; else "
            }
            return [
                DoctorCheck(
                    name: "bus", status: .problem, detail: error.openingError(bus, context: "doctor").message,
                    fix: (variable ?? "")
                        + "start dbus (`sudo systemctl start dbus`); in a container, mount the host's "
                        + "/run/dbus/system_bus_socket")
            ]
        }
        defer { connection.close() }
        var checks = [DoctorCheck(name: "bus", status: .ok, detail: "the D-Bus \(bus) answers")]
        do {
            guard try await connection.nameHasOwner(BlueZInterface.service, timeout: Self.limit) else {
                checks.append(
                    DoctorCheck(
                        name: "bluetoothd", status: .problem, detail: "BlueZ (org.bluez) is not on the bus",
                        fix: "install bluez (`sudo apt-get install bluez`) and start it "
                            + "(`sudo systemctl start bluetooth`)"))
                return checks
            }
        } catch {
            checks.append(DoctorCheck(name: "bluetoothd", status: .problem, detail: "the bus did not answer: \(error)"))
            return checks
        }
        checks.append(DoctorCheck(name: "bluetoothd", status: .ok, detail: "BlueZ (org.bluez) is on the bus"))
        let tree: BlueZObjectTree
        do {
            let reply = try await connection.call(
                destination: BlueZInterface.service, path: "/", interface: BlueZInterface.objectManager,
                member: "GetManagedObjects", timeout: Self.limit)
            tree = try BlueZObjectTree(managedObjects: reply)
        } catch .remote(let name, let message) where name.hasSuffix("AccessDenied") {
            checks.append(
                DoctorCheck(
                    name: "permissions", status: .problem,
                    detail: "the D-Bus policy does not let this user talk to BlueZ: \(message)",
                    fix: "add the user to the bluetooth group (`sudo usermod -aG bluetooth $USER`, then log in "
                        + "again), or allow it in /etc/dbus-1/system.d/bluetooth.conf"))
            return checks
        } catch {
            checks.append(
                DoctorCheck(name: "permissions", status: .problem, detail: "BlueZ did not list its objects: \(error)"))
            return checks
        }
        checks.append(
            DoctorCheck(name: "permissions", status: .ok, detail: "the D-Bus policy lets this user talk to BlueZ"))
        checks += adapterChecks(tree)
        return checks
    }

    /// The adapters: present, the one asked for among them, powered, and able to publish (`inspect`).
    private func adapterChecks(_ tree: BlueZObjectTree) -> [DoctorCheck] {
        let paths = tree.objects.keys.filter { tree.properties($0, BlueZInterface.adapter) != nil }.sorted()
        let names = paths.map { String($0.split(separator: "/").last ?? "") }
        guard !paths.isEmpty else {
            return [
                DoctorCheck(
                    name: "adapter", status: .problem, detail: "BlueZ lists no adapter",
                    fix: "plug in a Bluetooth adapter, or check that the kernel sees one (`rfkill list`, "
                        + "`sudo modprobe btusb`); containers and VMs usually have none")
            ]
        }
        let chosen = adapter ?? names[0]
        guard let index = names.firstIndex(of: chosen) else {
            return [
                DoctorCheck(
                    name: "adapter", status: .problem,
                    detail: "there is no adapter \(chosen); BlueZ lists \(names.joined(separator: ", "))",
                    fix: "use one of those: --transport bluez:\(names[0])")
            ]
        }
        let path = paths[index]
        let properties = tree.properties(path, BlueZInterface.adapter) ?? [:]
        let address = properties["Address"]?.string ?? "?"
        var checks = [
            DoctorCheck(
                name: "adapter", status: .ok,
                detail: "\(chosen) (\(address)); BlueZ lists \(names.joined(separator: ", "))")
        ]
        if properties["Powered"]?.bool == true {
            checks.append(DoctorCheck(name: "powered", status: .ok, detail: "\(chosen) is on"))
        } else {
            checks.append(
                DoctorCheck(
                    name: "powered", status: .problem, detail: "\(chosen) is off",
                    fix: "turn it on: `bluetoothctl power on` (if it will not stay on, see rfkill above)"))
        }
        let interfaces = tree.objects[path].map { Array($0.keys) } ?? []
        let missing = ["org.bluez.GattManager1", "org.bluez.LEAdvertisingManager1"].filter { !interfaces.contains($0) }
        if missing.isEmpty {
            checks.append(
                DoctorCheck(
                    name: "features", status: .ok,
                    detail: "\(chosen) can publish GATT services and advertise (airlink inspect)"))
        } else {
            checks.append(
                DoctorCheck(
                    name: "features", status: .note,
                    detail: "\(chosen) lacks \(missing.joined(separator: ", ")): airlink inspect cannot publish",
                    fix: "run bluetoothd with experimental features: Experimental = true under [General] in "
                        + "\(mainConf), then `sudo systemctl restart bluetooth`"))
        }
        return checks
    }

    /// The kernel's Bluetooth switches: a soft block is lifted with `rfkill`, a hard one only by hand.
    private func rfkillChecks() -> [DoctorCheck] {
        // try?: an unreadable rfkill folder is itself the finding, reported below as a note.
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: rfkill) else {
            return [DoctorCheck(name: "rfkill", status: .note, detail: "\(rfkill) cannot be read; rfkill not checked")]
        }
        // try?: a switch whose file cannot be read is left out; the others are still checked.
        func read(_ entry: String, _ file: String) -> String? {
            (try? String(contentsOfFile: "\(rfkill)/\(entry)/\(file)", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let radios = entries.sorted().filter { read($0, "type") == "bluetooth" }
        guard !radios.isEmpty else {
            return [DoctorCheck(name: "rfkill", status: .ok, detail: "no Bluetooth radio switch (nothing blocked)")]
        }
        let hard = radios.filter { read($0, "hard") == "1" }
        let soft = radios.filter { read($0, "soft") == "1" }
        if !hard.isEmpty {
            return [
                DoctorCheck(
                    name: "rfkill", status: .problem, detail: "\(hard.joined(separator: ", ")) hard-blocked",
                    fix: "a switch, a key or a firmware setting turned the radio off: turn it on there")
            ]
        }
        if !soft.isEmpty {
            return [
                DoctorCheck(
                    name: "rfkill", status: .problem, detail: "\(soft.joined(separator: ", ")) soft-blocked",
                    fix: "unblock it: `sudo rfkill unblock bluetooth`")
            ]
        }
        return [
            DoctorCheck(name: "rfkill", status: .ok, detail: "\(radios.joined(separator: ", ")) not blocked")
        ]
    }

    /// How long `bluetoothd --version` may take before it (and its process group) is killed.
    static let childDeadline = Duration.seconds(5)
    /// The most `bluetoothd --version` may print (a version is a few bytes).
    static let maximumChildOutput = 4096

    /// bluetoothd's version, from the first executable that answers `--version`.
    ///
    /// Each is run as every child of Airlink (``/AirlinkCore/ChildProcess``): its own process group, no signal
    /// blocked, killed at ``childDeadline`` or past ``maximumChildOutput`` bytes; what each one did is reported,
    /// never "no bluetoothd found" for one that was found.
    private func version() -> DoctorCheck {
        var findings: [String] = []
        for path in bluetoothd where FileManager.default.isExecutableFile(atPath: path) {
            let result: ChildProcess.Result
            do {
                result = try ChildProcess.run(
                    [path, "--version"], deadline: Self.childDeadline, maximumOutput: Self.maximumChildOutput)
            } catch {
                findings.append(error.message)
                continue
            }
            let text = String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            switch result.ending {
            case .timedOut(let deadline):
                findings.append("\(path) --version did not end within \(deadline.text) (killed)")
                continue
            case .outputTooLarge(let limit):
                findings.append("\(path) --version printed more than \(limit) bytes, not a version (killed)")
                continue
            case .signalled(let signal):
                findings.append("\(path) --version ended by signal \(signal)")
                continue
            case .exited: break
            }
            guard let number = Double(text.split(separator: ".").prefix(2).joined(separator: ".")) else {
                findings.append("\(path) --version printed \"\(text.prefix(80))\", not a version")
                continue
            }
            if number < 5.50 {
                return DoctorCheck(
                    name: "version", status: .note, detail: "bluetoothd \(text) (\(path))",
                    fix: "Airlink is tested with BlueZ 5.50 and later; upgrade bluez")
            }
            return DoctorCheck(name: "version", status: .ok, detail: "bluetoothd \(text) (\(path))")
        }
        guard findings.isEmpty else {
            return DoctorCheck(
                name: "version", status: .note, detail: findings.joined(separator: "; ") + "; version unknown",
                fix: "point --bluetoothd at BlueZ's bluetoothd, or reinstall bluez (`sudo apt-get install bluez`)")
        }
        return DoctorCheck(
            name: "version", status: .note,
            detail: "no bluetoothd found at \(bluetoothd.joined(separator: ", ")); version unknown",
            fix: "install bluez (`sudo apt-get install bluez`)")
    }

    /// The GATT cache: with `Cache = no` BlueZ forgets a device's services between connections.
    private func cacheCheck() -> DoctorCheck {
        let bytes: [UInt8]
        do {
            // A FIFO, a directory or a device is refused without blocking (InputFile), never taken as absent.
            guard
                let read = try InputFile.read(
                    mainConf, kind: "BlueZ configuration", maximumSize: 1 << 20,
                    advice: "such as /etc/bluetooth/main.conf")
            else {
                return DoctorCheck(
                    name: "cache", status: .ok, detail: "\(mainConf) absent: BlueZ's default GATT cache (always)")
            }
            bytes = read
        } catch {
            return DoctorCheck(
                name: "cache", status: .note, detail: error.message,
                fix: "point --main-conf at bluetoothd's configuration file, a regular file")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var section = ""
        var cache: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                section = line
            } else if section == "[GATT]", !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                if key == "Cache" { cache = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces) }
            }
        }
        guard let cache else {
            return DoctorCheck(name: "cache", status: .ok, detail: "\(mainConf): GATT cache default (always)")
        }
        if cache.lowercased() == "no" {
            return DoctorCheck(
                name: "cache", status: .note,
                detail: "\(mainConf): Cache = no, BlueZ discovers every device's services again on each connection",
                fix: "set Cache = always under [GATT] in \(mainConf) and `sudo systemctl restart bluetooth`")
        }
        return DoctorCheck(name: "cache", status: .ok, detail: "\(mainConf): Cache = \(cache)")
    }
}
