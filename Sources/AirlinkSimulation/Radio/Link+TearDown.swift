import AirlinkCore

extension Link {
    /// Fails what waits on the link, quietly (the simulation is going away; called under the lock by
    /// ``VirtualRadio/tearDown()``): its operations, its connection attempt, its pairing and the tasks
    /// waiting for it to close. Unlike ``drop(reason:)`` it tells no one on air: the run is over.
    func abandon(_ error: AirlinkError) {
        assertConfined()
        let pending = operations
        operations.removeAll()
        for operation in pending { operation.fail(error) }
        if let attempt {
            self.attempt = nil
            attempt.finish(.failure(error))
        }
        pairing?.finish(.failure(error))
        for waiter in disconnectWaiters { waiter.resume() }
        disconnectWaiters = []
    }
}
