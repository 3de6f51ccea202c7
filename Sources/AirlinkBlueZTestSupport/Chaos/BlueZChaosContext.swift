import Airlink
import AirlinkCore
import AirlinkRegistry
import Synchronization

/// What one run of the BlueZ explorer keeps across the app's sessions (a session: one transport and one
/// device manager; bluetoothd restarting ends one and the app opens the next).
final class BlueZChaosContext: Sendable {
    /// How far a client got, kept across sessions: a reopened session resumes the steps.
    struct Progress: Sendable {
        /// The index of the client's next step.
        var next = 0
        /// Whether it gave its subscription up (an `unsubscribe` step): it does not subscribe again.
        var unsubscribed = false
        /// Whether it disconnected at its end: the app is done with the device.
        var finished = false
    }

    /// A value the fixture accepted to notify, with the time the driver asked for it.
    struct Sent: Sendable {
        var device: DeviceID
        var time: Duration
        var bytes: [UInt8]
    }

    let fake: FakeBlueZ
    let workload: BlueZChaosWorkload
    /// The run's clock (real time from the start of the run), random source (the seed) and logger.
    let environment: AirlinkEnvironment
    /// The app's registry: it outlives the sessions, as a file would, and decides what a new session reopens.
    let registry: DeviceRegistry
    /// Each client's progress, in the workload's order.
    let progress: Mutex<[Progress]>
    /// What the fixture notified, in order.
    let onAir = Mutex<[Sent]>([])
    /// Whether the driver's notifiers were told to stop (each ends after its call in flight, if any).
    let notifiersStopped = Mutex(false)

    init(fake: FakeBlueZ, workload: BlueZChaosWorkload, environment: AirlinkEnvironment) {
        self.fake = fake
        self.workload = workload
        self.environment = environment
        registry = DeviceRegistry(repository: InMemoryDeviceRepository())
        progress = Mutex(Array(repeating: Progress(), count: workload.clients.count))
    }

    /// The last value the fixture notified for `device`, if any.
    func lastSent(to device: DeviceID) -> [UInt8]? {
        onAir.withLock { $0.last { $0.device == device }?.bytes }
    }
}
