import AirlinkCore

extension RadioPeripheral {
    /// Whether the central hears this peripheral at all (not moved out of range, strong enough).
    var isInRange: Bool {
        assertConfined()
        return !isOutOfRange && world.pathLoss.isInRange(measuredPower: spec.measuredPower, distance: position.distance)
    }

    /// Whether it sends advertising packets now.
    var isAdvertising: Bool {
        assertConfined()
        return isAdvertisingEnabled && advertises && links.count < spec.maximumConnections
    }

    /// Someone listens for this peripheral's advertisements (a scan, or a connection attempt).
    func addObserver() {
        assertConfined()
        observers += 1
        guard observers == 1, !advertisingScheduled, let advertising = spec.advertising else { return }
        advertisingScheduled = true
        advertisingGeneration += 1
        let generation = advertisingGeneration
        // The phase of an advertiser nobody listened to is unknown: the first event falls anywhere
        // within one interval.
        let first = world.now + .nanoseconds(Int64(world.random.uniform(in: 0...Int(advertising.interval.nanoseconds))))
        arm(.advertising(generation: generation), at: first)
    }

    /// Nobody listens any more; the chain of advertising events stops at its next event.
    func removeObserver() {
        assertConfined()
        observers = max(0, observers - 1)
    }

    /// One advertising event: every scanning central in range hears it, and a pending connection
    /// attempt may turn into a link (Core Spec Vol 6, Part B, 4.4.2).
    ///
    /// The hottest path of a scan (ten a second per advertiser): it reads the world through one strong
    /// reference (each use of the `unowned` field retains and releases it), the interval and
    /// connectability the model keeps (not a copy of the spec's ``/AirlinkCore/Advertising`` per
    /// event), and the path loss's mean once for the range check and every central's reading.
    func advertisingEvent(_ generation: Int) {
        assertConfined()
        guard generation == advertisingGeneration else { return }
        guard observers > 0, let interval = advertisingInterval else {
            advertisingScheduled = false
            return
        }
        let world = self.world
        if isAdvertising, !isOutOfRange {
            let pathLoss = world.pathLoss
            let mean = pathLoss.meanRSSI(measuredPower: spec.measuredPower, distance: position.distance)
            if mean >= pathLoss.sensitivity {
                if world.scanningCentralCount > 0 {
                    for central in world.centrals where central.scanFilter != nil {
                        central.receive(from: self, rssi: pathLoss.rssi(mean: mean, random: world.random))
                    }
                }
                if isConnectable, !pendingConnects.isEmpty { acceptConnection() }
            }
        }
        // advDelay: 0–10 ms of pseudo-random delay before every event (Vol 6, Part B, 4.4.2.2.1).
        let delay = VirtualDuration.nanoseconds(Int64(world.random.uniform(in: 0...10_000_000)))
        arm(.advertising(generation: generation), at: world.now + interval + delay)
    }

    /// Answers the first pending connection request after this advertising event.
    ///
    /// An injected failure belongs to one attempt: it is taken by the first attempt this event
    /// answers, and an attempt that took `.noAnswer` is passed over by every later event (it runs
    /// into its timeout), so it cannot use up the failures meant for the attempts after it.
    func acceptConnection() {
        assertConfined()
        guard let attempt = pendingConnects.first(where: { !$0.ignored }), links.count < spec.maximumConnections
        else { return }
        if !connectFailures.isEmpty {
            let failure = connectFailures.removeFirst()
            world.record("fault", "\(id) connection attempt fails: \(failure)")
            if let error = failure.error(for: id) {
                attempt.finish(.failure(error))
            } else {
                attempt.ignored = true  // .noAnswer: pending until its timeout
            }
            return
        }
        attempt.central.establishLink(for: attempt, with: self)
    }
}
