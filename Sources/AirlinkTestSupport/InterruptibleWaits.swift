import AirlinkCore
import Synchronization

/// Waits in virtual time that a link drop, a power-off or cancellation can cut short.
///
/// Each wait is a continuation resumed exactly once: by its timer, by ``interrupt(_:kind:with:)``
/// or by cancellation, whichever comes first.
package final class InterruptibleWaits: Sendable {
    package enum Kind: Sendable { case connect, request }

    private struct Entry {
        package let device: DeviceID
        package let kind: Kind
        package let continuation: CheckedContinuation<AirlinkError?, Never>
        package var timer: Task<Void, Never>?
    }

    private let environment: AirlinkEnvironment
    private let state = Mutex<(next: Int, entries: [Int: Entry])>((0, [:]))

    package init(environment: AirlinkEnvironment) { self.environment = environment }

    /// Waits `duration` (forever if `nil`); returns the interruption's error, or `nil` when the
    /// time passed.
    package func wait(_ device: DeviceID, _ kind: Kind, for duration: Duration?) async -> AirlinkError? {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<AirlinkError?, Never>) in
                if Task.isCancelled {
                    continuation.resume(returning: Self.cancelled)
                    return
                }
                state.withLock { $0.entries[id] = Entry(device: device, kind: kind, continuation: continuation) }
                guard let duration else { return }
                let clock = environment.clock
                let timer = environment.spawn {
                    // try?: a cancelled timer means the wait ended first.
                    guard (try? await clock.sleep(for: duration)) != nil else { return }
                    self.finish(id, with: nil)
                }
                state.withLock { $0.entries[id]?.timer = timer }
            }
        } onCancel: {
            finish(id, with: Self.cancelled)
        }
    }

    /// Cuts short every wait of `device` (of `kind`, or all kinds), in the order they began.
    package func interrupt(_ device: DeviceID?, kind: Kind?, with error: AirlinkError) {
        let ids = state.withLock { state in
            state.entries.filter {
                (device == nil || $0.value.device == device) && (kind == nil || $0.value.kind == kind)
            }
            .keys.sorted()
        }
        for id in ids { finish(id, with: error) }
    }

    private func finish(_ id: Int, with result: AirlinkError?) {
        guard let entry = state.withLock({ $0.entries.removeValue(forKey: id) }) else { return }
        if result != nil { entry.timer?.cancel() }
        entry.continuation.resume(returning: result)
    }

    private static let cancelled = AirlinkError(.cancelled, "the operation's task was cancelled")
}
