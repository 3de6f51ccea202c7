import AirlinkCore

// The layers' events as the trace keeps them (``/AirlinkCore/LayerEvent``): the one rendering of an
// event, its `description` and `name`, is the trace's.

extension AirlinkEvent {
    /// The event as the trace records it.
    public var traced: LayerEvent {
        switch self {
        case .adapterStateChanged(let state): .adapterStateChanged(state)
        case .discovery(let id, let event): .discovery(id, event.traced)
        case .connection(let device, let event): .connection(device, event.traced)
        case .services(let device, let event): .services(device, event.traced)
        }
    }
}

extension DiscoveryEvent {
    /// The event as the trace records it.
    public var traced: LayerEvent.Discovery {
        switch self {
        case .started: .started
        case .discovered(let device): .discovered(device: device.id, name: device.name, rssi: device.rssi)
        case .stopped(let reason): .stopped(reason.traced)
        }
    }
}

extension DiscoveryStopReason {
    /// The reason as the trace records it.
    public var traced: LayerEvent.StopReason {
        switch self {
        case .timeout: .timeout
        case .stopped: .stopped
        case .adapter(let state): .adapter(state)
        }
    }
}

extension ConnectionEvent {
    /// The event as the trace records it.
    public var traced: LayerEvent.Connection {
        switch self {
        case .connected(let info): .connected(mtu: info.mtu)
        case .failedToConnect(let error): .failedToConnect(error)
        case .lost(let error): .lost(error)
        case .terminated: .terminated
        case .willReconnect(let attempt, let remaining, let trigger):
            .willReconnect(attempt: attempt, remainingAttempts: remaining, trigger: trigger.traced)
        case .reconnected(let info): .reconnected(mtu: info.mtu)
        case .gaveUp(let error): .gaveUp(error)
        case .paired(let result): .paired(result)
        case .pairingFailed(let error): .pairingFailed(error)
        case .bondLost: .bondLost
        case .securityRequested(let request): .securityRequested(request)
        }
    }
}

extension ReconnectionTrigger {
    /// The trigger as the trace records it.
    public var traced: LayerEvent.ReconnectionStart {
        switch self {
        case .after(let delay): .after(delay)
        case .advertisement(let within): .advertisement(within: within)
        }
    }
}

extension ServicesEvent {
    /// The event as the trace records it.
    public var traced: LayerEvent.Services {
        switch self {
        case .discovered(let uuids): .discovered(uuids)
        case .changed: .changed
        case .notificationsChanged(let service, let characteristic, let mode):
            .notificationsChanged(service: service, characteristic: characteristic, mode: mode)
        case .notificationsRestored(let service, let characteristic, let mode):
            .notificationsRestored(service: service, characteristic: characteristic, mode: mode)
        case .notificationsRestoreFailed(let service, let characteristic, let error):
            .notificationsRestoreFailed(service: service, characteristic: characteristic, error: error)
        case .notificationsOverflowed(let service, let characteristic):
            .notificationsOverflowed(service: service, characteristic: characteristic)
        case .databaseChanged(let reason): .databaseChanged(reason)
        case .databaseCacheReused(let trust, let services): .databaseCacheReused(trust, services: services)
        case .stackCacheStale(let reason): .stackCacheStale(reason)
        }
    }
}
