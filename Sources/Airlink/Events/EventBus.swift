import AirlinkCore
import Logging

/// Publishes ``/AirlinkCore/AirlinkEvent``s: to every subscriber, to the environment's trace and to the log.
final class EventBus: Sendable {
    private let broadcaster = Broadcaster<AirlinkEvent>()
    private let trace: any TraceSink
    private let logger: Logger

    /// Creates a bus that traces and logs through `environment`.
    init(environment: AirlinkEnvironment) {
        self.trace = environment.trace
        self.logger = environment.logger
    }

    /// Publishes one event.
    func publish(_ event: AirlinkEvent) {
        trace.record(.event(event))
        logger.log(level: Self.level(of: event), "\(event)", metadata: event.device.map { ["device": "\($0)"] })
        broadcaster.yield(event)
    }

    /// A new stream of the events `predicate` admits, from now on.
    func subscribe(where predicate: (@Sendable (AirlinkEvent) -> Bool)?) -> EventStream<AirlinkEvent> {
        broadcaster.subscribe(where: predicate)
    }

    /// Ends every subscriber's stream.
    func finish() { broadcaster.finish() }

    /// How loud an event is in the log. A lost link is `info`: the app hears it as an event and handles it (a
    /// reconnection strategy, or its own choice of none); what needs attention is a reconnection that gave up, a
    /// first connection that failed, notifications that could not be restored.
    static func level(of event: AirlinkEvent) -> Logger.Level {
        switch event {
        case .connection(_, .gaveUp), .connection(_, .failedToConnect),
            .services(_, .notificationsRestoreFailed), .services(_, .notificationsOverflowed):
            .warning
        case .discovery(_, .discovered): .debug
        default: .info
        }
    }
}
