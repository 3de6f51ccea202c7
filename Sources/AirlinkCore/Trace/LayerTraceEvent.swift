/// What the layers above the transport record in a trace, typed: their events, the registry's
/// saves, the watchdog's deadlines.
///
/// The events are the layers' own (``AirlinkEvent``, defined here so that a simulation's trace keeps
/// them as data); ``text`` is the one rendering of them, the line golden traces and logs show.
public enum LayerTraceEvent: Sendable, Hashable {
    /// An event the layers published (category `event`).
    case event(AirlinkEvent)
    /// The registry saved what a connection found (category `registry`): the device, what was
    /// saved, and the device's record after the save.
    case registrySaved(device: DeviceID, what: RegistrySave, connectionCount: Int, serviceCount: Int)
    /// Saving to the registry failed (category `registry`); the app's connection went on.
    case registrySaveFailed(device: DeviceID, what: RegistrySave, error: AirlinkError)
    /// The watchdog gave up on an operation that passed its deadline (category `watchdog`); the
    /// operation was cancelled and, for a GATT operation, the link closed.
    case watchdogGaveUp(device: DeviceID, operation: String, deadline: Duration)

    /// What a registry save recorded.
    public enum RegistrySave: Sendable, Hashable {
        /// An established connection (its count and the services known then).
        case connection
        /// The services a full discovery found.
        case services
        /// The discovered GATT database, cached for later connections.
        case database
        /// The bond a pairing left, or its removal after the device lost it.
        case bond
    }
}
