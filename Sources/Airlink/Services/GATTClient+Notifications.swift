import AirlinkCore
import Synchronization

extension GATTClient {
    /// Turns notifications or indications of a characteristic on or off and remembers the choice,
    /// so that it is restored after a reconnection or a database change.
    ///
    /// - Parameter requested: the mode, or `nil` for notifications, or indications if the
    ///   characteristic only indicates: chosen in the same operation as the characteristic is
    ///   resolved, so that one deadline covers both.
    /// - Returns: the mode set.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` when the characteristic cannot send
    ///   values in that mode; what the transport throws.
    @discardableResult
    func setNotifications(
        _ requested: NotificationMode?, for uuid: BluetoothUUID, in serviceUUID: BluetoothUUID
    ) async throws(AirlinkError) -> NotificationMode {
        let operation =
            switch requested {
            case nil: "enable notifications of \(uuid)"
            case .disabled?: "disable notifications of \(uuid)"
            case let mode?: "enable \(mode) of \(uuid)"
            }
        // From the call on, a restore leaves this characteristic to the app (it may have been under way: the app's
        // choice is the later one).
        let key = CharacteristicKey(service: serviceUUID, characteristic: uuid)
        state.withLock { $0.changing[key, default: 0] += 1 }
        let mode: NotificationMode
        do throws(AirlinkError) {
            mode = try await configureNotifications(
                requested, of: uuid, in: serviceUUID, "\(operation) in \(serviceUUID)")
        } catch {
            state.withLock { $0.endChange(of: key) }
            await restoreSkipped(key)
            throw error
        }
        state.withLock { state in
            state.endChange(of: key)
            state.skipped[key] = nil
            state.subscriptions.removeAll { $0.service == serviceUUID && $0.characteristic == uuid }
            if mode != .disabled {
                state.subscriptions.append(Subscription(service: serviceUUID, characteristic: uuid, mode: mode))
            }
        }
        bus.publish(.services(device, .notificationsChanged(service: serviceUUID, characteristic: uuid, mode: mode)))
        return mode
    }

    /// The mode notifications of a characteristic are enabled in, as the app last set it.
    func notificationMode(of uuid: BluetoothUUID, in serviceUUID: BluetoothUUID) -> NotificationMode {
        state.withLock { state in
            state.subscriptions.first { $0.service == serviceUUID && $0.characteristic == uuid }?.mode ?? .disabled
        }
    }

    /// Enables again, in the order the app enabled them, the notifications it had enabled; reports
    /// each as restored or failed. Stops if the link goes down meanwhile: the next link restores.
    ///
    /// A restore belongs to one generation of the caches (one link, one database): when the link or the
    /// database changes under it, it stops, and the restore that change starts takes over.
    func restoreSubscriptions() async {
        let (subscriptions, generation) = state.withLock { ($0.subscriptions, $0.generation) }
        for subscription in subscriptions {
            guard await restore(subscription, generation: generation) else { return }
        }
    }

    /// Enables one subscription again and reports it restored or failed; leaves it to the app's own call when the
    /// app changed its choice for it or has a call under way that changes it (that call's answer reports it, and
    /// if the call fails, it restores what it skipped: ``State/skipped``).
    ///
    /// - Returns: whether a restore goes on with the next subscription (`false`: the link or the database changed,
    ///   and the next link or the change's own restore takes over).
    private func restore(_ subscription: Subscription, generation: Int) async -> Bool {
        let (service, uuid, mode) = (subscription.service, subscription.characteristic, subscription.mode)
        // Still the app's choice, with no call of the app's to change it under way: checked as the write is
        // queued, so that a later call of the app's goes on air after it. A call under way is told, under the same
        // lock, that it owes this restore if it fails (``State/skipped``).
        let key = CharacteristicKey(service: service, characteristic: uuid)
        let declined = Declined()
        let wanted: @Sendable () -> Bool = {
            let wanted = self.state.withLock { state in
                guard state.subscriptions.contains(subscription) else { return false }
                guard state.changing[key] == nil else {
                    state.skipped[key] = generation
                    return false
                }
                return true
            }
            if !wanted { declined.value.withLock { $0 = true } }
            return wanted
        }
        do {
            try await configureNotifications(
                mode, of: uuid, in: service, restoring: generation, "restore \(mode) of \(uuid) in \(service)",
                stillWanted: wanted)
            bus.publish(.services(device, .notificationsRestored(service: service, characteristic: uuid, mode: mode)))
        } catch  where error.code == Self.notWanted.code && declined.value.withLock({ $0 }) {
            // The app changed its choice meanwhile: its own call writes it (or, if it fails, restores this one)
        } catch  where error.code == Self.superseded.code && state.withLock({ $0.generation }) != generation {
            // ``superseded`` (with the context `perform` gives every error), or any cancellation once
            // the link or the database changed: the restore that change started takes over
            logger.debug("restoring notifications stopped: the device's database or link changed meanwhile")
            return false
        } catch  where error.code == .databaseOutOfSync {
            // The device changed its database under the restore (the transport refused or failed handles
            // it had reported changed, or the device answered 0x12): the change starts a restore of its own
            logger.debug("restoring notifications stopped: \(error)")
            return false
        } catch  where [.linkLost, .notConnected, .adapterPoweredOff].contains(error.code) {
            logger.debug("restoring notifications stopped: \(error)")
            return false
        } catch {
            bus.publish(
                .services(device, .notificationsRestoreFailed(service: service, characteristic: uuid, error: error)))
        }
        return true
    }

    /// After an app's call for `key` failed: if a restore skipped `key` while the call was under way and it was the
    /// last such call, the app's earlier choice (still its choice) is restored now, as the restore would have.
    private func restoreSkipped(_ key: CharacteristicKey) async {
        let skipped = state.withLock { state -> (Subscription, Int)? in
            guard state.changing[key] == nil, state.skipped.removeValue(forKey: key) == state.generation,
                let subscription = state.subscriptions.first(where: {
                    $0.service == key.service && $0.characteristic == key.characteristic
                })
            else { return nil }
            return (subscription, state.generation)
        }
        guard let (subscription, generation) = skipped else { return }
        _ = await restore(subscription, generation: generation)
    }

    /// The operation that sets or restores notifications: resolves the characteristic, chooses the
    /// mode (`requested`, or notifications unless it only indicates), checks it and writes it.
    ///
    /// The handles it writes must belong to the database the device serves then: when the device reports
    /// Service Changed (or the link changes) while the characteristic is being resolved, the handles found
    /// may point at other attributes. The app's call then resolves again on the new database; a restore
    /// (`restoring`, the generation it belongs to) stops with ``superseded``, since the change starts one of
    /// its own.
    ///
    /// - Returns: the mode written.
    @discardableResult
    private func configureNotifications(
        _ requested: NotificationMode?, of uuid: BluetoothUUID, in serviceUUID: BluetoothUUID,
        restoring generation: Int? = nil, _ operation: @autoclosure @Sendable () -> String,
        stillWanted: @Sendable () -> Bool = { true }
    ) async throws(AirlinkError) -> NotificationMode {
        try await perform(operation(), service: serviceUUID, characteristic: uuid) {
            first throws(AirlinkError) -> NotificationMode in
            var turn = first
            while true {
                if let generation, turn.generation != generation { throw Self.superseded }
                let (_, characteristic) = try await resolveCharacteristic(uuid, in: serviceUUID, turn: turn)
                let properties = characteristic.properties
                let mode =
                    requested
                    ?? (properties.contains(.indicate) && !properties.contains(.notify) ? .indicate : .notify)
                try Self.check(mode, characteristic)
                let current = try requireLink(operation())
                guard current == turn.generation else {
                    // Resolved on a database the device has replaced since: never write those handles.
                    try requireDeadline(turn)
                    turn = Turn(generation: current, bounded: true)
                    continue
                }
                guard stillWanted() else { throw Self.notWanted }
                try await transport.setNotifications(device, characteristic: characteristic, mode: mode)
                return mode
            }
        }
    }

    /// Thrown when a restore's link or database changed under it: the restore that change started takes
    /// over. Never seen by the app.
    static let superseded = AirlinkError(
        .cancelled, "the device's database or link changed while notifications were being restored")

    /// Thrown when a restore finds the app changed its choice for a characteristic (or is changing it): the
    /// app's own call writes it. Never seen by the app.
    static let notWanted = AirlinkError(.cancelled, "the app changed its notifications while they were being restored")

    /// Set when a restore's last check left a characteristic to the app (read once the write was given up).
    private final class Declined: Sendable {
        let value = Mutex(false)
    }

    /// The key of a characteristic in ``State/changing``: its service and its own UUID.
    struct CharacteristicKey: Hashable {
        /// The service's UUID.
        var service: BluetoothUUID
        /// The characteristic's UUID.
        var characteristic: BluetoothUUID
    }

    /// Throws unless the characteristic's properties allow `mode`.
    static func check(_ mode: NotificationMode, _ characteristic: GATTCharacteristic) throws(AirlinkError) {
        let properties = characteristic.properties
        let allowed: Bool
        switch mode {
        case .disabled: allowed = properties.canSubscribe
        case .notify: allowed = properties.contains(.notify)
        case .indicate: allowed = properties.contains(.indicate)
        }
        guard !allowed else { return }
        let hint =
            properties.canSubscribe
            ? "use \(properties.contains(.notify) ? "notify" : "indicate") instead"
            : "read it instead, or observe another characteristic"
        throw AirlinkError(
            .operationNotSupported,
            "characteristic \(characteristic.uuid) cannot "
                + "\(mode == .disabled ? "notify or indicate" : mode.description) "
                + "(its properties are \(properties)); \(hint)")
    }
}
