import AirlinkCore
import Synchronization

/// Keeps the adapter's last known power state, so that operations fail at once while it is off.
final class AdapterMonitor: Sendable {
    private let transport: any Transport
    private let state = Mutex<AdapterState?>(nil)

    /// Creates a monitor that asks `transport` until events tell it the state.
    init(transport: any Transport) { self.transport = transport }

    /// The last known state, or `nil` before the transport was first asked.
    var known: AdapterState? { state.withLock { $0 } }

    /// The current state: the last known one, or the transport's answer.
    func current() async -> AdapterState {
        if let known { return known }
        let answer = await transport.adapterState
        return state.withLock { state in
            if state == nil { state = answer }
            return state!
        }
    }

    /// Records the transport's first answer, unless an event already told the state.
    func recordInitial(_ answer: AdapterState) -> Bool {
        state.withLock { state in
            guard state == nil else { return false }
            state = answer
            return true
        }
    }

    /// Records a change; returns the state before it (`nil` if unknown).
    func record(_ new: AdapterState) -> AdapterState? {
        state.withLock { state in
            defer { state = new }
            return state
        }
    }

    /// Throws unless the adapter is powered on.
    ///
    /// - Parameter operation: what was attempted, for the message: `connect to C0:FF:EE:00:00:01`.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff`` or
    ///   ``/AirlinkCore/AirlinkError/Code/transportUnavailable``.
    ///   It is described only when the check fails: most calls pass, and describing a read names two
    ///   128-bit UUIDs.
    func requirePoweredOn(_ operation: @autoclosure () -> String) async throws(AirlinkError) {
        if let error = Self.error(for: await current(), operation: operation()) { throw error }
    }

    /// The error an operation earns in `state`, or `nil` when the adapter is on (then `operation` is
    /// not evaluated).
    static func error(for state: AdapterState, operation: @autoclosure () -> String) -> AirlinkError? {
        switch state {
        case .poweredOn:
            return nil
        case .poweredOff:
            return AirlinkError(
                .adapterPoweredOff,
                "cannot \(operation()): the Bluetooth adapter is powered off; power it on (for example "
                    + "`bluetoothctl power on`) and try again")
        case .unavailable(let why):
            return AirlinkError(
                .transportUnavailable, "cannot \(operation()): no usable Bluetooth adapter (\(why))")
        }
    }
}
