import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkTransportContract
import CDBus
import Foundation
import Testing

@testable import AirlinkBlueZ

/// Reads per second through BlueZTransport next to a minimal raw libdbus loop making the same
/// ReadValue call, in the same run, on the same fake BlueZ: from a task on the D-Bus thread's executor
/// (the default on `bluez`: `OpenedTransport.run` and the layers' environment use it), and from an
/// ordinary task on the global executor. Opt-in (it takes a few seconds):
///
///     AIRLINK_BLUEZ_BENCHMARK=1 swift test -c release --filter ReadThroughputBenchmark
@Suite(
    .fakeBlueZ(), .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["AIRLINK_BLUEZ_BENCHMARK"] == "1"))
struct ReadThroughputBenchmark {
    static let reads = 2_000
    static let rounds = 3
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    @Test func airlinkReadsWithinAFewPerCentOfRawLibdbus() async throws {
        // Given a connected thermostat, and a raw libdbus connection on the same bus
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        let path = FakeBlueZ.devicePath("C0:FF:EE:00:00:01") + "/service000a/char000b"
        let raw = try RawReader(address: fake.address, path: path)

        // When each reads the temperature N times, in rounds
        var rawRates: [Double] = []
        var airlinkRates: [Double] = []
        var rawCPU: [Double] = []
        var airlinkCPU: [Double] = []
        var rawSwitches: [Double] = []
        var airlinkSwitches: [Double] = []
        var onLoopRates: [Double] = []
        // Each round runs the three variants in another order (raw first, then the ordinary task first, then the
        // default path first), so that no variant always gets the fixture fresh or always after the others.
        for round in 0..<Self.rounds {
            for variant in (0..<3).map({ ($0 + round) % 3 }) {
                switch variant {
                case 0:
                    let rawStart = ContinuousClock.now
                    let rawCPUStart = Self.processCPU()
                    let rawSwitchesStart = Self.contextSwitches()
                    for _ in 0..<Self.reads { try raw.read() }
                    rawCPU.append((Self.processCPU() - rawCPUStart) / Double(Self.reads) * 1e6)
                    rawSwitches.append((Self.contextSwitches() - rawSwitchesStart) / Double(Self.reads))
                    rawRates.append(Double(Self.reads) / Self.seconds(rawStart.duration(to: .now)))
                case 1:
                    let airlinkStart = ContinuousClock.now
                    let airlinkCPUStart = Self.processCPU()
                    let airlinkSwitchesStart = Self.contextSwitches()
                    for _ in 0..<Self.reads {
                        _ = try await transport.read(thermostat, handle: ContractHandles.temperature)
                    }
                    airlinkCPU.append((Self.processCPU() - airlinkCPUStart) / Double(Self.reads) * 1e6)
                    airlinkSwitches.append((Self.contextSwitches() - airlinkSwitchesStart) / Double(Self.reads))
                    airlinkRates.append(Double(Self.reads) / Self.seconds(airlinkStart.duration(to: .now)))
                default:
                    // The default path: the same reads from a task that prefers the D-Bus thread (no hop).
                    let onLoopStart = ContinuousClock.now
                    try await withTaskExecutorPreference(transport.taskExecutor) {
                        for _ in 0..<Self.reads {
                            _ = try await transport.read(thermostat, handle: ContractHandles.temperature)
                        }
                    }
                    onLoopRates.append(Double(Self.reads) / Self.seconds(onLoopStart.duration(to: .now)))
                }
            }
        }
        print(
            String(
                format: "CPU time of the test process per read (best round): raw %.1f µs, BlueZTransport %.1f µs",
                rawCPU.min() ?? 0, airlinkCPU.min() ?? 0))
        print(
            String(
                format: "Context switches of the test process per read (fewest round): raw %.1f, BlueZTransport %.1f",
                rawSwitches.min() ?? 0, airlinkSwitches.min() ?? 0))

        // Then on the default path Airlink's best round is within 1.15x of raw libdbus's best (1.5x from
        // an ordinary task, which the D-Bus thread resumes on the cooperative pool: one thread hop a read)
        let rawBest = rawRates.max() ?? 0
        let airlinkBest = airlinkRates.max() ?? 0
        print(
            String(
                format: "ReadValue throughput: raw libdbus %.0f reads/s, BlueZTransport from an ordinary task "
                    + "%.0f reads/s (ratio %.2f); "
                    + "rounds raw %@, airlink %@", rawBest, airlinkBest, rawBest / airlinkBest,
                rawRates.map { String(format: "%.0f", $0) }.joined(separator: "/"),
                airlinkRates.map { String(format: "%.0f", $0) }.joined(separator: "/")))
        let onLoopBest = onLoopRates.max() ?? 0
        print(
            String(
                format: "Default path, the D-Bus thread as task executor: %.0f reads/s (ratio %.2f); rounds %@",
                onLoopBest, rawBest / onLoopBest, onLoopRates.map { String(format: "%.0f", $0) }.joined(separator: "/"))
        )
        #expect(rawBest / onLoopBest < 1.15)
        #expect(rawBest / airlinkBest < 1.5)
        await transport.disconnect(thermostat)
    }

    /// User and system CPU seconds of the whole test process.
    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Voluntary and involuntary context switches of the whole test process.
    static func contextSwitches() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_nvcsw + usage.ru_nivcsw)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// The raw loop: one blocking libdbus call per read, nothing else.
final class RawReader {
    private let connection: OpaquePointer
    private let path: String

    struct Failure: Error {}

    init(address: String, path: String) throws {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error), dbus_bus_register(connection, &error) != 0
        else { throw Failure() }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        self.connection = connection
        self.path = path
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    func read() throws {
        guard
            let message = dbus_message_new_method_call("org.bluez", path, "org.bluez.GattCharacteristic1", "ReadValue")
        else { throw Failure() }
        defer { dbus_message_unref(message) }
        var iter = DBusMessageIter()
        var dictionary = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        dbus_message_iter_open_container(&iter, Int32(UInt8(ascii: "a")), "{sv}", &dictionary)
        dbus_message_iter_close_container(&iter, &dictionary)
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, 5_000, &error) else {
            throw Failure()
        }
        var replyIter = DBusMessageIter()
        var bytes = DBusMessageIter()
        dbus_message_iter_init(reply, &replyIter)
        dbus_message_iter_recurse(&replyIter, &bytes)
        var base: UnsafePointer<UInt8>? = nil
        var count: Int32 = 0
        dbus_message_iter_get_fixed_array(&bytes, &base, &count)
        dbus_message_unref(reply)
        guard count == 2 else { throw Failure() }
    }
}
