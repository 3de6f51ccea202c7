import Airlink
import AirlinkBlueZ
import AirlinkCore
import Foundation

extension InspectCommand {
    /// Publishes the `--value`s on a real adapter and prints what centrals do (connect, subscribe,
    /// write, leave) until interrupted (SIGINT, SIGTERM) or for `--duration`, then unpublishes.
    func runOnBlueZ(adapter: String) async throws {
        let environment = AirlinkEnvironment.live()
        let peripheral = try BlueZPeripheral(adapter: adapter, environment: environment)
        let inspector = Inspector(name: name, transport: peripheral, environment: environment)
        let arguments = try value.map { try InspectArgument(parsing: $0) }
        let protections = try ProtectArgument.protections(protect, among: arguments.map(\.identifier))
        for argument in arguments {
            try inspector.inspect(
                argument.identifier, initialValue: argument.value,
                options: InspectionOptions([.read, .write, .notify]).union(protections[argument.identifier] ?? []))
        }
        if !protections.isEmpty {
            try inspector.setSecurity(ProtectArgument.security(for: protections) { emit($0) })
        }
        let writes = inspector.events()
        let centrals = peripheral.peripheralEvents()
        try await inspector.start()
        let listing = inspector.identifiers.map { "\($0) = \(inspector.value(of: $0).map { "\($0)" } ?? "?")" }
        emit("inspector \"\(name)\" on \(peripheral.name) publishes \(listing.joined(separator: ", "))")
        let stop = StopSignal()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in centrals {
                    switch event {
                    case .subscriptionChanged(_, _, let characteristic, let mode):
                        let identifier = inspector.identifier(of: characteristic) ?? "\(characteristic)"
                        emit("central \(mode == .disabled ? "unsubscribed from" : "subscribed to") \(identifier)")
                    case .centralConnected(let central): emit("central \(central) connected")
                    case .centralDisconnected(let central, let reason): emit("central \(central) left: \(reason)")
                    case .pairingRequested, .paired, .pairingFailed: emit(Self.pairingLine(event))
                    }
                }
            }
            group.addTask {
                for await event in writes {
                    switch event {
                    case .written(let identifier, let value): emit("central wrote \(identifier) = \(value)")
                    case .refused(let identifier, let error): emit("central's write to \(identifier) refused: \(error)")
                    }
                }
            }
            // try?: validate() already refused a bad --duration.
            let limit = duration.flatMap { try? DurationArgument.parse($0, flag: "--duration") }
            await stop.wait(upTo: limit)
            await inspector.stop()
            emit("inspector \"\(name)\" stopped")
            group.cancelAll()
        }
    }
}

/// Waits for SIGINT or SIGTERM, or for a time limit.
struct StopSignal {
    private let sources: [any DispatchSourceSignal]

    init() {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number)
        }
    }

    /// Returns at the first signal, or once `limit` has passed (never without one).
    func wait(upTo limit: Duration?) async {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        for source in sources {
            source.setEventHandler { continuation.yield() }
            source.resume()
        }
        let timer = limit.map { limit in
            Task {
                // try?: a cancelled timer means the command stopped first; either way it ends the wait.
                try? await Task.sleep(for: limit)
                continuation.yield()
            }
        }
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
        timer?.cancel()
        for source in sources { source.cancel() }
    }
}
