import AirlinkCore

extension DeviceService {
    /// Turns notifications or indications of a characteristic on or off.
    ///
    /// Airlink remembers the choice: after a reconnection, or after the device reports that its
    /// database changed, it enables them again by itself and reports
    /// ``/AirlinkCore/ServicesEvent/notificationsRestored(service:characteristic:mode:)``.
    ///
    /// - Parameters:
    ///   - mode: `.notify`, `.indicate` or `.disabled`.
    ///   - characteristic: the characteristic's UUID.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` when its properties do not allow the mode;
    ///   ``/AirlinkCore/AirlinkError/Code/characteristicNotFound``, ``/AirlinkCore/AirlinkError/Code/notConnected``,
    ///   ``/AirlinkCore/AirlinkError/Code/timeout`` 30 s after the call (discovery on first use included), ...
    public func setNotifications(_ mode: NotificationMode, for characteristic: BluetoothUUID) async throws(AirlinkError)
    {
        try await client.setNotifications(mode, for: characteristic, in: uuid)
    }

    /// Enables notifications of a characteristic, or indications if it only indicates.
    ///
    /// One operation: looking up the characteristic's properties (discovering it on first use) and
    /// writing its configuration complete or throw ``/AirlinkCore/AirlinkError/Code/timeout`` within 30 s
    /// of the call together.
    ///
    /// - Returns: the mode enabled.
    /// - Throws: what ``setNotifications(_:for:)`` throws.
    @discardableResult
    public func enableNotifications(for characteristic: BluetoothUUID) async throws(AirlinkError) -> NotificationMode {
        try await client.setNotifications(nil, for: characteristic, in: uuid)
    }

    /// Disables notifications and indications of a characteristic.
    ///
    /// - Throws: what ``setNotifications(_:for:)`` throws.
    public func disableNotifications(for characteristic: BluetoothUUID) async throws(AirlinkError) {
        try await setNotifications(.disabled, for: characteristic)
    }

    /// The mode the app enabled for a characteristic (`.disabled` if none).
    public func notificationMode(of characteristic: BluetoothUUID) -> NotificationMode {
        client.notificationMode(of: characteristic, in: uuid)
    }

    /// The values a characteristic sends by notification or indication, from now on, as an
    /// `AsyncSequence`; stop iterating and drop the sequence (or cancel the task) to stop observing.
    ///
    /// Observing does not enable notifications: call ``enableNotifications(for:)`` too. The stream
    /// survives reconnections, and ends when the link is gone for good: lost with no reconnection to
    /// follow, the strategy gave up, or the app called ``ConnectionManager/disconnect()``. Ask again
    /// to follow the next connection. Its buffer is bounded
    /// (``DeviceManager/Configuration/notificationBufferCapacity``): if the consumer falls behind,
    /// newer values are dropped and the gap is reported, never hidden
    /// (``CharacteristicValue/missedBefore``,
    /// ``/AirlinkCore/ServicesEvent/notificationsOverflowed(service:characteristic:)``).
    ///
    /// - Parameter characteristic: the characteristic's UUID.
    public func values(of characteristic: BluetoothUUID) -> CharacteristicValues {
        registry.stream(for: characteristic)
    }

    /// Adds a closure observer of a characteristic's notified values.
    ///
    /// Closure observers of one service run one at a time, in order, on the service's own task: a
    /// slow observer delays only its service, never another's. The closure may suspend (`await`).
    ///
    /// - Parameters:
    ///   - characteristic: the characteristic's UUID.
    ///   - body: called with each value.
    /// - Returns: a token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(
        for characteristic: BluetoothUUID, _ body: @escaping @Sendable (CharacteristicValue) async -> Void
    ) -> ObserverToken {
        registry.add(for: characteristic, body)
    }

    /// Removes a closure observer; values queued for it are not delivered.
    public func removeObserver(_ token: ObserverToken) {
        registry.remove(token.id, from: token.characteristic)
    }

    /// How many observers (streams and closures) a characteristic has.
    public func observerCount(of characteristic: BluetoothUUID) -> Int {
        registry.count(for: characteristic)
    }
}
