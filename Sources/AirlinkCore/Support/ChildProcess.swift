#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every process Airlink starts, started one way: in its own process group, with no signal blocked and
/// every signal at its default disposition (a Swift worker thread's mask would otherwise be inherited, and
/// a child that blocks SIGTERM outlives its parent's intent), bounded by a deadline after which the group
/// is killed, and with its output bounded.
package enum ChildProcess {
    /// How a run ended.
    package enum Ending: Sendable, Equatable {
        /// The child exited with this status.
        case exited(Int32)
        /// A signal ended the child.
        case signalled(Int32)
        /// The deadline passed first; the child's process group was killed.
        case timedOut(Duration)
        /// The child printed more than the bound; its process group was killed.
        case outputTooLarge(Int)
    }

    /// What a run printed on its standard output (at most the bound) and how it ended.
    package struct Result: Sendable {
        package var ending: Ending
        package var output: [UInt8]
    }

    /// Starts `arguments` (the executable's path first) with the given file actions, in a new process group,
    /// with an empty signal mask and default dispositions.
    ///
    /// - Returns: the child's pid, also its process group's id (kill the group with `kill(-pid, signal)`).
    /// - Throws: ``AirlinkError/Code/invalidArgument`` with `.posix(errno:call: "posix_spawn")` when it cannot start.
    package static func spawn(
        _ arguments: [String], actions: UnsafePointer<posix_spawn_file_actions_t>?, environment: [String]? = nil
    ) throws(AirlinkError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        // Every signal back to its default: an ignored one (SIGPIPE, SIGINT under nohup) survives exec otherwise.
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var pid: pid_t = 0
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let cEnvironment = environment.map { $0.map { strdup($0) } + [nil] }
        defer { for variable in cEnvironment ?? [] { free(variable) } }
        let spawned =
            if let cEnvironment {
                posix_spawn(&pid, arguments[0], actions, &attributes, cArguments, cEnvironment)
            } else {
                posix_spawn(&pid, arguments[0], actions, &attributes, cArguments, environ)
            }
        guard spawned == 0 else {
            throw AirlinkError(
                .invalidArgument,
                "cannot start \(arguments[0].escapingControlCharacters()): \(String(cString: strerror(spawned)))",
                cause: .posix(errno: spawned, call: "posix_spawn"), context: arguments[0])
        }
        return pid
    }

    /// Adds to `actions` the closing of every descriptor from 3 up, so that a child inherits nothing else its parent
    /// holds open (a socket, a FIFO's end opened without `O_CLOEXEC`) beyond what the actions set up before.
    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, found at run time (Swift's Glibc module does not
    /// declare it); without it, nothing is added.
    package static func closeOthers(in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }

    /// Runs `arguments` (the executable's path first) to its end, with standard input and error on /dev/null.
    ///
    /// The child and anything it started in its group are killed (SIGKILL) when `deadline` passes, when it
    /// prints more than `maximumOutput` bytes, and when it has exited (a grandchild left holding the output
    /// never stalls the caller). Reads the wall clock: for tools run outside any simulation.
    ///
    /// - Throws: as ``spawn(_:actions:environment:)``, or when the output pipe cannot be made.
    package static func run(_ arguments: [String], deadline: Duration, maximumOutput: Int) throws(AirlinkError)
        -> Result
    {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw AirlinkError(.invalidArgument, "cannot make a pipe", cause: .posix(errno: errno, call: "pipe"))
        }
        // No other child may inherit the pipe (the child's end is duplicated onto its standard output).
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        closeOthers(in: &actions)
        let pid: pid_t
        do {
            pid = try spawn(arguments, actions: &actions)
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[1])
        defer { close(ends[0]) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = 0
        var exited = false
        var ending: Ending?
        var open = true
        /// Reads what is in the pipe now; false at its end.
        func drain() -> Bool {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
                if count > 0 {
                    output.append(contentsOf: buffer[0..<count])
                    if output.count > maximumOutput { return true }
                    continue
                }
                if count < 0, errno == EINTR { continue }
                return count < 0  // EAGAIN: open, nothing more now; 0: the end
            }
        }
        while ending == nil {
            if open { open = drain() }
            if output.count > maximumOutput {
                ending = .outputTooLarge(maximumOutput)
                break
            }
            if !exited, waitpid(pid, &status, WNOHANG) == pid { exited = true }
            if exited {
                // Everything the child wrote is in the pipe: take it, and leave no grandchild waiting to write.
                if open { open = drain() }
                ending = output.count > maximumOutput ? .outputTooLarge(maximumOutput) : nil
                break
            }
            let left = clock.now.duration(to: end)
            guard left > .zero else {
                ending = .timedOut(deadline)
                break
            }
            // Waits for output or 10 ms (to notice the exit), never past the deadline.
            var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(10, max(1, left / .milliseconds(1))))
            _ = open ? poll(&descriptor, 1, milliseconds) : poll(nil, 0, milliseconds)
        }
        kill(-pid, SIGKILL)
        if !exited {
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
        if let ending { return Result(ending: ending, output: Array(output.prefix(maximumOutput))) }
        let signal = status & 0x7F
        return Result(ending: signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal), output: output)
    }
}
