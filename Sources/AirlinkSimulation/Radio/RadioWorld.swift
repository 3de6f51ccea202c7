import AirlinkCore

/// The air of one simulation: its simulated peripherals, its centrals and the links between them.
///
/// Every mutable field is guarded by ``lock``; in practice everything runs on the simulation's driver
/// thread, one event at a time. Radio events (advertising events, packet deliveries, timeouts) are
/// synchronous actions in the kernel's timer queue, keyed by (virtual time, arming order): there is no
/// task per advertisement or per packet.
final class RadioWorld: RadioConfined, @unchecked Sendable {
    // @unchecked: every mutable field is read and written under `lock`; debug builds assert it where the
    // world's own members touch them (``RadioConfined/assertConfined(_:file:line:)``).
    let lock = RadioLock()
    let kernel: SimulationKernel
    let environment: AirlinkEnvironment
    let trace: SimulationTrace
    /// Whether the trace keeps lines (it records nothing otherwise).
    let tracing: Bool
    var pathLoss = PathLossModel()
    var peripherals: [RadioPeripheral] = []
    var peripheralsByID: [DeviceID: RadioPeripheral] = [:]
    var centrals: [VirtualRadio] = []
    var nextLinkID = 1
    var scanningCentralCount = 0

    init(kernel: SimulationKernel, environment: AirlinkEnvironment, trace: SimulationTrace, tracing: Bool) {
        self.kernel = kernel
        self.environment = environment
        self.trace = trace
        self.tracing = tracing
    }

    /// Itself: the world whose lock guards it.
    var world: RadioWorld { self }

    /// The current virtual time.
    var now: VirtualInstant { kernel.virtualNow }

    /// The random source.
    var random: any RandomSource { environment.random }

    /// Calls `action` under the lock at `time`.
    func schedule(at time: VirtualInstant, _ action: @escaping @Sendable () -> Void) {
        let lock = self.lock
        kernel.schedule(at: time) { lock.withLock { action() } }
    }

    /// Records a trace line.
    @inline(__always)
    func record(_ category: String, _ text: @autoclosure () -> String) {
        trace.record(category, text())
    }

    /// Records a typed trace record (built only while tracing).
    @inline(__always)
    func record(_ event: @autoclosure () -> TraceEvent) {
        trace.record(event())
    }

    /// Forgets everything (the simulation is going away): ends event streams and breaks the reference
    /// cycles between centrals, links and peripherals.
    func tearDown() {
        let centrals = lock.withLock { () -> [VirtualRadio] in
            defer {
                for peripheral in peripherals {
                    peripheral.links = []
                    peripheral.pendingConnects = []
                }
                peripherals = []
                peripheralsByID = [:]
                self.centrals = []
            }
            return self.centrals
        }
        for central in centrals { central.tearDown() }
    }

    /// The peripheral with `id`, if one was added.
    func peripheral(_ id: DeviceID) -> RadioPeripheral? {
        assertConfined()
        return peripheralsByID[id]
    }

    /// Adds a peripheral; its timeline starts now.
    func add(_ spec: PeripheralSpec) throws(AirlinkError) -> RadioPeripheral {
        let advertisingData = try spec.validatedAdvertisingData()
        let layout: AttributeTableBuilder
        do {
            layout = try AttributeTableBuilder(spec.gattDefinition)
        } catch {
            throw AirlinkError(.invalidSpecification, "peripheral \"\(spec.name)\" (\(spec.id)): \(error.message)")
        }
        return try lock.withLock { () throws(AirlinkError) -> RadioPeripheral in
            if peripheralsByID[spec.id] != nil {
                throw AirlinkError(
                    .invalidSpecification,
                    "peripheral \"\(spec.name)\": another peripheral already has the id \(spec.id); give each its own")
            }
            let model = try RadioPeripheral(world: self, spec: spec, layout: layout, advertisingData: advertisingData)
            peripherals.append(model)
            peripheralsByID[spec.id] = model
            record("radio", "\(spec.id) added \"\(spec.name)\" at \(spec.position)")
            model.startTimeline()
            if scanningCentralCount > 0 { model.addObserver() }
            return model
        }
    }
}
