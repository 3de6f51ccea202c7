import AirlinkCore

/// A contract world inside a simulation (the virtual radio's, the scripted transport's): checks run
/// on the simulation's executor and every wait is in its virtual time.
public protocol SimulatedContractWorld: TransportContractWorld {
    /// The simulation's environment: its executor and virtual clock.
    var environment: AirlinkEnvironment { get }
}

extension SimulatedContractWorld {
    /// Virtual time since the simulation began.
    public func now() -> Duration { environment.clock.now.offset }

    /// Races `work` against a sleep of `timeout` on the virtual clock, both on the simulation's executor.
    public func within<Value: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async -> Value?) async
        -> Value?
    {
        let environment = self.environment
        return await withTaskGroup(of: Value?.self) { group in
            group.addTask(executorPreference: environment.executor) { await work() }
            group.addTask(executorPreference: environment.executor) {
                // try?: cancelled when the work answered first; the group takes the first answer.
                try? await environment.clock.sleep(for: timeout)
                return nil
            }
            let result = await group.next() ?? nil
            group.cancelAll()
            return result
        }
    }
}
