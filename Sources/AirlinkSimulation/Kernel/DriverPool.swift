import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The threads that drive simulations, kept parked between runs so that a run does not pay for a
/// new thread.
///
/// A run hands its driver loop to a parked thread, or to a new one when none is parked (runs of
/// several simulations at once each get one). A thread that finished a run parks again, unless
/// ``maximumParked`` already wait; then it ends. Each run still gets a thread that is not one of
/// Swift's cooperative threads, and holds it only while it runs.
enum DriverPool {
    /// The most threads kept parked; more would only hold memory.
    static let maximumParked = 4

    private static let parked = Mutex<[ParkedDriver]>([])

    /// Runs `body` on a driver thread: a parked one, or a new one; on the calling thread if no
    /// thread can be made (the run stays correct; escaped work may then wait for it to finish).
    static func start(_ body: @escaping @Sendable () -> Void) {
        if let driver = parked.withLock({ $0.popLast() }) {
            driver.hand(body)
            return
        }
        let driver = ParkedDriver(first: body)
        let context = Unmanaged.passRetained(driver)
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<ParkedDriver>.fromOpaque(argument).takeRetainedValue().loop()
                return nil
            }, context.toOpaque())
        if status == 0 {
            pthread_detach(thread)
        } else {
            context.release()
            body()
        }
    }

    /// Parks `driver` after a run; `false` when enough threads are parked already (it then ends).
    fileprivate static func park(_ driver: ParkedDriver) -> Bool {
        parked.withLock { parked in
            guard parked.count < maximumParked else { return false }
            parked.append(driver)
            return true
        }
    }
}

/// One driver thread: it runs the work it is handed, then parks until it is handed more.
private final class ParkedDriver: @unchecked Sendable {
    // @unchecked: `work` is read and written under `mutex` only.
    private var work: (@Sendable () -> Void)?
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(first: @escaping @Sendable () -> Void) {
        work = first
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(wake, nil)
    }

    deinit {
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(mutex)
        wake.deallocate()
        mutex.deallocate()
    }

    /// Hands a parked thread its next run.
    func hand(_ body: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        work = body
        pthread_cond_signal(wake)
        pthread_mutex_unlock(mutex)
    }

    /// The thread's life: run, park, run again when handed work; end when the pool is full.
    func loop() {
        while true {
            pthread_mutex_lock(mutex)
            while work == nil { pthread_cond_wait(wake, mutex) }
            let body = work!
            work = nil
            pthread_mutex_unlock(mutex)
            body()
            guard DriverPool.park(self) else { return }
        }
    }
}
