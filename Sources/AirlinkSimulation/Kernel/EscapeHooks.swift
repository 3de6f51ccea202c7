#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Installs the Swift runtime's global-executor hooks once per process, to count work that leaves a
/// simulation.
///
/// The hooks (`swift_task_enqueueGlobal_hook` and its delayed variants, the same ones Point-Free's
/// `withMainSerialExecutor` uses) see every job sent to the global concurrent executor. Each one is
/// passed on unchanged; when the sending thread is running a simulation's job (see ``DriverThread``),
/// the simulation's escape counter goes up first. Jobs of other threads, such as a test runner's own
/// parallel tests, are not counted, so simulations side by side do not disturb one another.
enum EscapeHooks {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void
    typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
    typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
    typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
    typealias DeadlineHook =
        @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) ->
        Void

    /// Whether the hooks could be installed (the runtime exports them).
    static let installed: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        var any = false
        if let symbol = dlsym(process, "swift_task_enqueueGlobal_hook") {
            let slot = symbol.assumingMemoryBound(to: Hook?.self)
            if slot.pointee == nil {
                slot.pointee = { job, original in
                    noteEscape("a job was sent to the global executor (Task {}, Task.detached or an escaping actor)")
                    original(job)
                }
                any = true
            }
        }
        if let symbol = dlsym(process, "swift_task_enqueueGlobalWithDelay_hook") {
            let slot = symbol.assumingMemoryBound(to: DelayHook?.self)
            if slot.pointee == nil {
                slot.pointee = { delay, job, original in
                    noteEscape("a job slept on real time (Task.sleep or a system clock)")
                    original(delay, job)
                }
                any = true
            }
        }
        if let symbol = dlsym(process, "swift_task_enqueueGlobalWithDeadline_hook") {
            let slot = symbol.assumingMemoryBound(to: DeadlineHook?.self)
            if slot.pointee == nil {
                slot.pointee = { seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
                    noteEscape("a job slept on real time (Task.sleep or a system clock)")
                    original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
                }
                any = true
            }
        }
        return any
    }()

    private static func noteEscape(_ what: StaticString) {
        guard let current = DriverThread.current else { return }
        Unmanaged<SimulationKernel>.fromOpaque(current).takeUnretainedValue().noteEscape(String(describing: what))
    }
}
