import AirlinkCore

extension Simulation {
    /// Adds a simulated peripheral to the air; its timeline starts now.
    ///
    /// - Returns: the peripheral's handle, with its fault verbs.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` naming the peripheral and the fault (see
    ///   ``/AirlinkCore/PeripheralSpec/validate()``), or when another peripheral has the same id.
    @discardableResult
    public func add(_ spec: PeripheralSpec) throws(AirlinkError) -> SimulatedPeripheral {
        SimulatedPeripheral(model: try world.add(spec))
    }

    /// Adds every peripheral of a world, in order.
    @discardableResult
    public func add(_ world: SimulatedWorld) throws(AirlinkError) -> [SimulatedPeripheral] {
        var added: [SimulatedPeripheral] = []
        for spec in world.peripherals { added.append(try add(spec)) }
        return added
    }

    /// The handle of an added peripheral.
    public func peripheral(_ id: DeviceID) -> SimulatedPeripheral? {
        world.lock.withLock { world.peripheral(id) }.map(SimulatedPeripheral.init(model:))
    }

    /// The ids of the peripherals added, in the order they were added.
    public var peripheralIDs: [DeviceID] { world.lock.withLock { world.peripherals.map(\.spec.id) } }
}
