import AirlinkBlueZ
import AirlinkCore
import AirlinkTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

// Real time throughout this file, on purpose: the fixture is another process (a dbus-daemon and a Python
// bluetoothd), so its start, its control calls and its stop are bounded by the wall clock, never by a
// simulation's virtual time.

/// The fake BlueZ of Tests/Fixtures/bluez, run as a process group: a private dbus-daemon and
/// python-dbusmock's bluez5 template with Airlink's patches and peripherals.
///
/// Its waits read the real clock, on purpose: the fixture is another process, outside any simulation;
/// each wait is for a condition (a line printed, a call logged, a name owned) and has a deadline.
///
/// `start` returns once the fixture printed `READY <address>` and org.bluez is owned on that bus;
/// `stop` ends the process group and removes the temporary directory. The control methods call
/// org.airlink.FakeBlueZ1 (Tests/Fixtures/bluez/control.py). Shared by the BlueZ tests and the CLI's
/// tests through this target (`AirlinkBlueZTestSupport`).
package final class FakeBlueZ: Sendable {
    /// The fixture a suite's ``FakeBlueZTrait`` started.
    @TaskLocal package static var current: FakeBlueZ?

    /// The bus address (`unix:path=/tmp/airlink-fake-bluez-XXXX/bus,guid=...`).
    package let address: String
    package let directory: String
    package let processGroup: pid_t
    private let inputFD: Int32
    private let control: DBusConnection
    /// The fixture's unique bus name: its control object stays reachable when org.bluez is released.
    private let controlName: String
    /// How long `start` took.
    package let startDuration: Duration
    private let stopped = Mutex(false)

    /// Tests/Fixtures/bluez, found from this file's place in the package.
    package static let fixtureDirectory: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Tests/Fixtures/bluez").path
    }()

    private init(
        address: String, directory: String, processGroup: pid_t, inputFD: Int32, control: DBusConnection,
        controlName: String, startDuration: Duration
    ) {
        self.controlName = controlName
        self.address = address
        self.directory = directory
        self.processGroup = processGroup
        self.inputFD = inputFD
        self.control = control
        self.startDuration = startDuration
    }

    deinit { stop() }

    /// Why the fixture could not start, or a control call's condition was not met in time.
    package struct StartError: Error, CustomStringConvertible {
        /// What went wrong, with the fixture's log when it did not start.
        package var description: String
    }

    /// Starts a fixture with peripheral descriptions from Tests/Fixtures/bluez (file names) or paths.
    package static func start(_ descriptions: [String] = ["thermostat.json", "battery.json"]) async throws -> FakeBlueZ
    {
        // Real time on purpose: the fixture is another process (the figure goes to the suite's timing report).
        let began = ContinuousClock.now
        var template = Array("/tmp/airlink-fake-bluez-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw StartError(description: "mkdtemp failed: errno \(errno)") }
        let directory = String(cString: made)
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else {
            throw StartError(description: "pipe failed: errno \(errno)")
        }
        // Other suites spawn fixtures concurrently: none may inherit these pipes.
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var arguments = ["/usr/bin/python3", fixtureDirectory + "/fake_bluez.py", "--dir", directory]
        for description in descriptions {
            arguments += [
                "--description", description.hasPrefix("/") ? description : fixtureDirectory + "/" + description,
            ]
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/fixture.log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Nothing else the test process holds (a FIFO's end another test opened) lives on in the fixture
        ChildProcess.closeOthers(in: &actions)
        // A new process group (stopped as a whole), signals neither blocked nor ignored (ChildProcess): the
        // spawning thread's mask (a Swift worker's) would otherwise keep SIGTERM from the fixture.
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(arguments, actions: &actions)
            close(input[0])
            close(output[1])
        } catch {
            for fd in input + output { close(fd) }
            throw StartError(description: "posix_spawn of the fixture failed: \(error.message)")
        }
        func fail(_ why: String) -> StartError {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            close(input[1])
            // try?: the fixture failed to start; its log, if it wrote one, only adds to the error below, and the
            // scratch directory is ours to remove.
            let log = (try? String(contentsOfFile: directory + "/fixture.log", encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: directory)
            return StartError(description: "the fake BlueZ did not start: \(why)\n\(log)")
        }
        // The fixture takes seconds to start (more with others starting): wait off the tasks' cooperative pool.
        let readFD = output[0]
        let line = try await offThePool { readLine(fd: readFD, timeout: .seconds(20)) }
        guard let line, line.hasPrefix("READY ") else {
            close(output[0])
            throw fail("no READY line")
        }
        close(output[0])
        let address = String(line.dropFirst("READY ".count))
        let control: DBusConnection
        let controlName: String
        do {
            control = try DBusConnection(bus: .address(address))
            // The fixture owns org.bluez before it prints READY; should the bus say otherwise, wait for the
            // name's owner to change (watched before asking, so no change is missed), 2 s at most.
            let ownerChanges = try await control.signals(
                DBusMatchRule(
                    sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                    arg0: "org.bluez"))
            if try await !control.nameHasOwner("org.bluez") {
                let gained = await firstWithin(ownerChanges, .seconds(2)) { signal -> Bool? in
                    // try?: a signal of another shape is not the one awaited.
                    let arguments = try? signal.message.arguments(expecting: "sss", context: "NameOwnerChanged")
                    return arguments?.last?.string?.isEmpty == false ? true : nil
                }
                guard gained == true else { throw fail("org.bluez has no owner") }
            }
            let owner = try await control.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", arguments: [.string("org.bluez")], timeout: .seconds(5))
            controlName = try owner.arguments().first?.string ?? "org.bluez"
        } catch let error as StartError {
            throw error
        } catch {
            throw fail("\(error)")
        }
        let fake = FakeBlueZ(
            address: address, directory: directory, processGroup: pid, inputFD: input[1], control: control,
            controlName: controlName, startDuration: began.duration(to: .now))
        return fake
    }

    /// Stops the process group (SIGTERM, then SIGKILL after two seconds) and removes the directory.
    /// Returns how long it took.
    @discardableResult
    package func stop() -> Duration {
        // Real time on purpose: how long the fixture process took to stop.
        let began = ContinuousClock.now
        let already = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !already else { return .zero }
        control.close()
        close(inputFD)
        kill(-processGroup, SIGTERM)
        // Wait for the fixture to exit, two seconds at most: a thread reaps it, this one waits for that.
        let reaped = DispatchSemaphore(value: 0)
        let pid = processGroup
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            reaped.signal()
        }
        if reaped.wait(timeout: .now() + .seconds(2)) == .timedOut {
            kill(-processGroup, SIGKILL)
            reaped.wait()
        }
        // The dbus-daemon child shares the group; make sure nothing of it is left.
        kill(-processGroup, SIGKILL)
        // try?: a scratch directory; nothing to report if it is already gone.
        try? FileManager.default.removeItem(atPath: directory)
        return began.duration(to: .now)
    }

    /// The configuration of a transport on this fixture's bus.
    package func configuration(adapter: String? = nil, hci: any KernelHCI = UnavailableHCI())
        -> BlueZTransport.Configuration
    {
        BlueZTransport.Configuration(
            adapter: adapter, busAddress: address, operationTimeout: .seconds(5), servicesGrace: .milliseconds(500),
            servicesQuietPeriod: .milliseconds(100), servicesSettleLimit: .seconds(3), hci: hci)
    }

    /// Opens a transport on this fixture.
    package func transport(adapter: String? = nil, hci: any KernelHCI = UnavailableHCI()) async throws
        -> BlueZTransport
    {
        try await BlueZTransport.open(configuration(adapter: adapter, hci: hci))
    }

    // MARK: - Control (org.airlink.FakeBlueZ1)

    @discardableResult
    func call(_ member: String, _ arguments: [DBusValue]) async throws -> DBusMessage {
        try await control.call(
            destination: controlName, path: "/org/airlink/FakeBlueZ", interface: "org.airlink.FakeBlueZ1",
            member: member, arguments: arguments, timeout: .seconds(5))
    }

    /// A device's object path on an adapter of the fixture.
    package static func devicePath(_ address: String, adapter: String = "hci0") -> String {
        "/org/bluez/\(adapter)/dev_" + address.replacingOccurrences(of: ":", with: "_")
    }

    package func reset() async throws { try await call("Reset", []) }

    package func failNext(_ method: String, on path: String = "", error: String, text: String, count: UInt32 = 1)
        async throws
    {
        try await call("FailNext", [.string(path), .string(method), .string(error), .string(text), .uint32(count)])
    }

    /// How the device at `path` pairs: `just-works`, `passkey` (Pair asks the registered agent for a passkey and
    /// compares it with `passkey`) or `confirm` (asks the agent to confirm `passkey`).
    package func setPairing(_ path: String, _ method: String, passkey: UInt32 = 0) async throws {
        try await call("SetPairing", [.string(path), .string(method), .uint32(passkey)])
    }

    /// The device's bond changes outside the client's Pair: `Paired` and `Bonded` turn to `bonded` together.
    package func setBond(_ path: String, bonded: Bool) async throws {
        try await call("SetBond", [.string(path), .boolean(bonded)])
    }

    package func hangNext(_ method: String, on path: String = "", count: UInt32 = 1) async throws {
        try await call("HangNext", [.string(path), .string(method), .uint32(count)])
    }

    package func wrongSignatureNext(_ method: String, on path: String = "", count: UInt32 = 1) async throws {
        try await call("WrongSignatureNext", [.string(path), .string(method), .uint32(count)])
    }

    package func emptyReplyNext(_ method: String, on path: String = "", count: UInt32 = 1) async throws {
        try await call("EmptyReplyNext", [.string(path), .string(method), .uint32(count)])
    }

    package func setConnectMode(_ device: String, _ mode: String, delay: Duration = .milliseconds(5)) async throws {
        try await call("SetConnectMode", [.string(device), .string(mode), .uint32(Self.milliseconds(delay))])
    }

    package func notifyOnSubscribe(_ characteristic: String, _ value: [UInt8]) async throws {
        try await call("NotifyOnSubscribe", [.string(characteristic), .bytes(value)])
    }

    @discardableResult
    package func notify(_ characteristic: String, _ value: [UInt8]) async throws -> Bool {
        try await call("Notify", [.string(characteristic), .bytes(value)]).arguments().first?.bool ?? false
    }

    package func dropLink(_ device: String, reason: String = "") async throws {
        try await call("DropLink", [.string(device), .string(reason)])
    }

    /// A remote central connects to the adapter; returns its device path.
    package func centralConnects(_ address: String, adapter: String = "/org/bluez/hci0") async throws -> String {
        try await call("CentralConnects", [.string(adapter), .string(address)]).arguments().first?.string ?? ""
    }

    /// A connected central pairs with the adapter: the fake asks the default agent as `method` says (`confirm`,
    /// `passkey`, `display`, `authorize`, `cancel`, `just-works`), then sets `Paired` (and `Bonded` when the
    /// adapter is `Pairable`); the agent's answer is logged as `PairingAnswered`.
    package func centralPairs(_ device: String, _ method: String, passkey: UInt32 = 0) async throws {
        try await call("CentralPairs", [.objectPath(device), .string(method), .uint32(passkey)])
    }

    /// A central's link ends, with `reason` (`org.bluez.Reason.Remote` ...) first, or none.
    package func centralLeaves(_ device: String, reason: String = "") async throws {
        try await call("CentralLeaves", [.objectPath(device), .string(reason)])
    }

    package func removeDevice(_ device: String, abrupt: Bool) async throws {
        try await call("RemoveDevice", [.string(device), .boolean(abrupt)])
    }

    package func setPowered(_ powered: Bool, adapter: String = "/org/bluez/hci0") async throws {
        try await call("SetPowered", [.string(adapter), .boolean(powered)])
    }

    package func changeServices(_ device: String, json: String) async throws {
        try await call("ChangeServices", [.string(device), .string(json)])
    }

    /// The device's database becomes `json`'s services without BlueZ noticing: BlueZ keeps serving its old
    /// objects, on later connections too, until `RemoveDevice`; the Database Hash characteristic reads the new
    /// database's value (a stale BlueZ cache, Docs/GATTCaching.md).
    package func staleCache(_ device: String, json: String) async throws {
        try await call("StaleCache", [.string(device), .string(json)])
    }

    /// Service Changed with the new objects re-added one at a time, `interval` apart; with
    /// `resolveAgain`, ServicesResolved turns false first and true after the last object.
    package func changeServicesSlowly(_ device: String, json: String, interval: Duration, resolveAgain: Bool)
        async throws
    {
        try await call(
            "ChangeServicesSlowly",
            [.string(device), .string(json), .uint32(Self.milliseconds(interval)), .boolean(resolveAgain)])
    }

    /// Service Changed as the real bluetoothd reports it: the device's GATT objects go at once (its discovery of
    /// the changed range starts), and the new database's objects all come `discovery` later (that discovery over
    /// the air has ended), if the device is still connected.
    package func changeServicesAfterDiscovery(_ device: String, json: String, discovery: Duration) async throws {
        try await call(
            "ChangeServicesAfterDiscovery", [.string(device), .string(json), .uint32(Self.milliseconds(discovery))])
    }

    /// The adapter is unplugged: its objects go, without disconnection signals (``reset()`` brings it back).
    package func removeAdapter(_ adapter: String = "/org/bluez/hci0") async throws {
        try await call("RemoveAdapter", [.string(adapter)])
    }

    /// Powers the adapter off as bluetoothd does: Powered false first, the links drop `linkDelay` later.
    package func powerOffFirst(linkDelay: Duration, adapter: String = "/org/bluez/hci0") async throws {
        try await call("PowerOffFirst", [.string(adapter), .uint32(Self.milliseconds(linkDelay))])
    }

    /// Waits until the call log holds `count` calls of `method` (the fixture has received them), for
    /// `limit` at most; throws if it does not. The fixture signals each call it logs with the number of
    /// such calls so far (`CallLogged`), watched here before the log is first read so that none is missed.
    package func waitForCall(_ method: String, count: Int = 1, within limit: Duration = .seconds(30)) async throws {
        let logged = try await control.signals(
            DBusMatchRule(
                sender: controlName, interface: "org.airlink.FakeBlueZ1", member: "CallLogged", arg0: method))
        if try await callLog().filter({ $0["method"] as? String == method }).count >= count { return }
        let reached = await firstWithin(logged, limit) { signal -> Bool? in
            // try?: a signal of another shape is not the one awaited.
            let arguments = try? signal.message.arguments(expecting: "su", context: "CallLogged")
            guard case .uint32(let logged)? = arguments?.last, Int(logged) >= count else { return nil }
            return true
        }
        guard reached == true else {
            throw StartError(description: "the fake BlueZ received no \(method) call within \(limit)")
        }
    }

    private static func milliseconds(_ duration: Duration) -> UInt32 {
        UInt32(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    @discardableResult
    package func addPeripheral(json: String) async throws -> String {
        try await call("AddPeripheral", [.string(json)]).arguments().first?.string ?? ""
    }

    package func releaseName() async throws { try await call("ReleaseName", []) }

    /// The calls the fixture logged, decoded from its JSON.
    package func callLog() async throws -> [[String: Any]] {
        let text = try await call("CallLog", []).arguments().first?.string ?? "[]"
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]) ?? []
    }

    private static func readLine(fd: Int32, timeout: Duration) -> String? {
        // Real time on purpose: a deadline on another process's output.
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var collected: [UInt8] = []
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) >= 0 else { return nil }
            guard descriptor.revents != 0 else { continue }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: collected, as: UTF8.self) }
            collected.append(byte)
        }
        return nil
    }
}

/// An HCI controller for a machine without kernel Bluetooth: every call fails as errno 97 would.
package struct UnavailableHCI: KernelHCI {
    /// A controller whose calls all fail.
    package init() {}

    /// Fails as `socket(AF_BLUETOOTH)` does without kernel Bluetooth.
    package func adapters() throws(AirlinkError) -> [HCIAdapter] {
        throw LibBluetoothKernelHCI.error(errno: EAFNOSUPPORT, call: "socket(AF_BLUETOOTH)")
    }

    /// Fails as `socket(AF_BLUETOOTH)` does without kernel Bluetooth.
    package func readRSSI(adapter: String, address: BDAddress) throws(AirlinkError) -> Int {
        throw LibBluetoothKernelHCI.error(errno: EAFNOSUPPORT, call: "socket(AF_BLUETOOTH)")
    }
}

/// A suite trait that runs the suite on its own fake BlueZ: started before the suite's first test,
/// stopped after its last, reachable as ``FakeBlueZ/current``.
package struct FakeBlueZTrait: SuiteTrait, TestScoping {
    /// The peripheral descriptions the fixture loads.
    package var descriptions: [String]

    /// Once for the suite, not for each test.
    package var isRecursive: Bool { false }

    /// Starts the fixture, runs the suite with it as ``FakeBlueZ/current``, stops it.
    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let fake = try await FakeBlueZ.start(descriptions)
        // Real time on purpose: the suite's run against a real process, for the timing report.
        let began = ContinuousClock.now
        do {
            try await FakeBlueZ.$current.withValue(fake) { try await function() }
        } catch {
            // try?: the suite's own error is the one to report; stopping the fixture is clean-up.
            _ = try? await offThePool { fake.stop() }
            throw error
        }
        let ran = began.duration(to: .now)
        // Stopping waits up to two seconds for the fixture to exit: off the tasks' cooperative pool.
        let stopTime = try await offThePool { fake.stop() }
        FixtureTimings.record(suite: test.name, start: fake.startDuration, stop: stopTime, ran: ran)
    }
}

extension Trait where Self == FakeBlueZTrait {
    /// Runs the suite on its own fake BlueZ with these peripheral descriptions.
    package static func fakeBlueZ(_ descriptions: String...) -> Self {
        FakeBlueZTrait(descriptions: descriptions.isEmpty ? ["thermostat.json", "battery.json"] : descriptions)
    }
}

/// Start and stop times of each suite's fixture, printed for the report.
package enum FixtureTimings {
    /// Prints a suite's fixture timings.
    package static func record(suite: String, start: Duration, stop: Duration, ran: Duration) {
        func ms(_ duration: Duration) -> String {
            String(
                format: "%.0f ms",
                Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
        }
        print("fake BlueZ [\(suite)]: start \(ms(start)), stop \(ms(stop)), suite ran \(ms(ran))")
    }
}

extension FakeBlueZ {
    /// The suite's fixture, reset to its loaded state.
    package static func fresh() async throws -> FakeBlueZ {
        guard let fake = current else {
            throw StartError(description: "no fake BlueZ: put .fakeBlueZ() on the suite")
        }
        try await fake.reset()
        return fake
    }
}
