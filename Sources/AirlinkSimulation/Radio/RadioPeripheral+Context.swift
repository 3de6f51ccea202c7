import AirlinkCore

extension RadioPeripheral: PeripheralContext {
    var now: AirlinkInstant { world.now.airlinkInstant }

    var random: any RandomSource { world.random }

    var state: PeripheralState {
        get { world.lock.withLock { stateStorage } }
        set { world.lock.withLock { stateStorage = newValue } }
    }

    func bytes(of characteristic: BluetoothUUID, in service: BluetoothUUID?) throws(AirlinkError) -> [UInt8] {
        try world.lock.withLock { () throws(AirlinkError) -> [UInt8] in
            catchUpUpdates()
            return database[try valueHandle(of: characteristic, in: service)]?.value ?? []
        }
    }

    func setBytes(_ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID?)
        throws(AirlinkError)
    {
        try world.lock.withLock { () throws(AirlinkError) in
            try store(bytes, for: try valueHandle(of: characteristic, in: service), notify: true)
        }
    }

    func notify(_ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID?)
        throws(AirlinkError)
    {
        try world.lock.withLock { () throws(AirlinkError) in
            send(bytes, for: try notifiableValueHandle(of: characteristic, in: service))
        }
    }

    /// The value handle of a characteristic that can notify or indicate.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/characteristicNotFound``,
    ///   ``/AirlinkCore/AirlinkError/Code/operationNotSupported``.
    func notifiableValueHandle(of characteristic: BluetoothUUID, in service: BluetoothUUID?) throws(AirlinkError)
        -> ATTHandle
    {
        assertConfined()
        let entry = try entry(characteristic, in: service)
        guard entry.spec.properties.canSubscribe else {
            throw AirlinkError(
                .operationNotSupported,
                "characteristic \(characteristic) of \"\(spec.name)\" has properties \(entry.spec.properties), "
                    + "without notify or indicate")
        }
        return entry.valueHandle
    }

    func schedule(after delay: Duration, _ body: @escaping @Sendable (any PeripheralContext) -> Void) {
        world.lock.withLock {
            world.schedule(at: world.now + VirtualDuration(max(delay, .zero))) { [self] in
                catchUpUpdates()
                body(self)
            }
        }
    }

    func log(_ text: String) {
        world.record("peripheral", "\(id) \(text)")
    }
}
