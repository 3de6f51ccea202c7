#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file a user names (a golden trace, a recording, a capture, a report), held to the rules of every file
/// output: nothing at the path is replaced by something else, and no write waits forever.
///
/// - A regular file, or nothing, is written whole beside the path and renamed over it, so that a reader never
///   sees half a file; a symbolic link is followed, and its target replaced, never the link.
/// - A character device (`/dev/null`, `/dev/stdout` on a terminal) or a FIFO whose reader is there is written
///   into, as a shell's `>` does; a FIFO nobody reads is refused at once, and a reader that takes nothing for
///   ``stallLimit`` ends the write with an error.
/// - A directory, a block device or a socket is refused, naming what it is; it is left as it was.
public enum OutputFile {
    /// The longest a device or FIFO may take no bytes before the write fails: 10 s.
    public static let stallLimit: Int32 = 10_000

    /// Writes `bytes` to `path`.
    ///
    /// - Parameters:
    ///   - bytes: the file's whole content.
    ///   - path: where; a symbolic link is followed.
    ///   - kind: what the file is, for messages (`golden trace`, `recording`, `report`).
    /// - Throws: ``AirlinkError/Code/invalidArgument`` naming the path and what is wrong: what it is (a directory,
    ///   a socket, a block device), a FIFO nobody reads or that stopped reading, or the failing call
    ///   (`.posix(errno:call:)`, with advice for a missing directory).
    public static func write(_ bytes: [UInt8], to path: String, kind: String) throws(AirlinkError) {
        try write(bytes, to: path, kind: kind, stallLimit: stallLimit)
    }

    /// As ``write(_:to:kind:)``, failing when a reader takes nothing for `stallLimit` milliseconds.
    static func write(_ bytes: [UInt8], to path: String, kind: String, stallLimit: Int32) throws(AirlinkError) {
        let shown = path.escapingControlCharacters()
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            guard code == ENOENT else { throw failure(code, "check", kind, shown, path) }
            var link = stat()
            // A dangling symbolic link: its target is created through it; the link stays a link.
            if lstat(path, &link) == 0 {
                return try stream(bytes, to: path, kind: kind, stallLimit: stallLimit)
            }
            return try replace(path, with: bytes, mode: 0o644, kind: kind)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: try replace(try resolved(path, kind: kind), with: bytes, mode: info.st_mode & 0o7777, kind: kind)
        case S_IFCHR, S_IFIFO: try stream(bytes, to: path, kind: kind, stallLimit: stallLimit)
        default: throw refusal(info.st_mode, path, kind: kind)
        }
    }

    /// Opens `path` to write a file as it grows (a live capture): a regular file is truncated in place (a reader
    /// follows it as it grows), a missing one is created, a device or a FIFO with a reader is opened; the others are
    /// refused as ``write(_:to:kind:)`` refuses them. Writes to the descriptor block as a pipe's do.
    ///
    /// - Returns: the descriptor, for the caller to close.
    /// - Throws: as ``write(_:to:kind:)``.
    public static func openToAppend(_ path: String, kind: String) throws(AirlinkError) -> Int32 {
        var info = stat()
        if stat(path, &info) == 0, ![S_IFREG, S_IFCHR, S_IFIFO].contains(info.st_mode & S_IFMT) {
            throw refusal(info.st_mode, path, kind: kind)
        }
        let fd = try openWithoutWaiting(path, kind: kind)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Opens `path` to write, created or truncated, without waiting for a FIFO's reader: `O_NONBLOCK` makes the
    /// open of a FIFO nobody reads fail (`ENXIO`) at once, and that is refused, naming it.
    private static func openWithoutWaiting(_ path: String, kind: String) throws(AirlinkError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0o644)
        guard fd >= 0 else {
            let (code, shown) = (errno, path.escapingControlCharacters())
            if code == ENXIO {
                throw AirlinkError(
                    .invalidArgument,
                    "nothing reads the FIFO \(shown): start its reader first, or give a file to write the \(kind) to",
                    cause: .posix(errno: code, call: "open"), context: path)
            }
            throw failure(code, "open", kind, shown, path)
        }
        return fd
    }

    /// The refusal of a path that is no file (a directory, a socket, a block device), naming what it is.
    private static func refusal(_ mode: mode_t, _ path: String, kind: String) -> AirlinkError {
        let what = InputFile.nonRegularKind(mode) ?? "not a regular file"
        return AirlinkError(
            .invalidArgument,
            "\(path.escapingControlCharacters()) is \(what), not a file: give the path of the \(kind) to write",
            cause: .posix(errno: what == "a directory" ? EISDIR : EINVAL, call: "stat"), context: path)
    }

    /// The path with every symbolic link followed.
    private static func resolved(_ path: String, kind: String) throws(AirlinkError) -> String {
        guard let real = realpath(path, nil) else {
            throw failure(errno, "resolve", kind, path.escapingControlCharacters(), path)
        }
        defer { free(real) }
        return String(cString: real)
    }

    /// Writes `bytes` to a new file beside `path` and renames it over `path`.
    private static func replace(_ path: String, with bytes: [UInt8], mode: mode_t, kind: String) throws(AirlinkError) {
        let shown = path.escapingControlCharacters()
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(errno, "create", kind, shown, path) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            try writeAll(bytes, to: fd, kind: kind, shown: shown, path: path, stallLimit: OutputFile.stallLimit)
            guard fchmod(fd, mode) == 0, fsync(fd) == 0 else { throw failure(errno, "write", kind, shown, path) }
        }
        guard rename(temporary, path) == 0 else { throw failure(errno, "replace", kind, shown, path) }
        renamed = true
    }

    /// Writes `bytes` into the device or FIFO at `path` (or creates the target of a dangling link).
    private static func stream(_ bytes: [UInt8], to path: String, kind: String, stallLimit: Int32)
        throws(AirlinkError)
    {
        let fd = try openWithoutWaiting(path, kind: kind)
        defer { close(fd) }
        // A FIFO's reader may leave mid-write: that is an error to report (EPIPE), not a SIGPIPE to die of
        let restore = blockBrokenPipeSignal()
        defer { restore() }
        try writeAll(
            bytes, to: fd, kind: kind, shown: path.escapingControlCharacters(), path: path, stallLimit: stallLimit)
    }

    /// Writes every byte, waiting at most `stallLimit` milliseconds each time the reader takes nothing.
    private static func writeAll(
        _ bytes: [UInt8], to fd: Int32, kind: String, shown: String, path: String, stallLimit: Int32
    ) throws(AirlinkError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count >= 0 {
                offset += count
                continue
            }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else { throw failure(code, "write", kind, shown, path) }
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            // A relative wait on the descriptor, not a clock: this is a file outside any simulation.
            let polled = poll(&ready, 1, stallLimit)
            if polled < 0, errno == EINTR { continue }
            guard polled > 0 else {
                throw AirlinkError(
                    .invalidArgument,
                    "the reader of \(shown) took nothing for \(Double(stallLimit) / 1000) s; \(offset) of "
                        + "\(bytes.count) bytes of the \(kind) were written",
                    cause: .posix(errno: ETIMEDOUT, call: "poll"), context: path)
            }
        }
    }

    /// Blocks SIGPIPE on this thread, so that a write to a pipe nobody reads fails with EPIPE; the returned
    /// function takes back a SIGPIPE that write raised (so that it is not delivered later) and restores the mask.
    package static func blockBrokenPipeSignal() -> () -> Void {
        var brokenPipe = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &brokenPipe, &previous)
        return {
            var pending = sigset_t()
            if sigpending(&pending) == 0, sigismember(&pending, SIGPIPE) == 1, sigismember(&previous, SIGPIPE) == 0 {
                var immediately = timespec()
                _ = sigtimedwait(&brokenPipe, nil, &immediately)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
    }

    private static func failure(_ code: Int32, _ call: String, _ kind: String, _ shown: String, _ path: String)
        -> AirlinkError
    {
        let advice = code == ENOENT ? "; check the directory exists" : ""
        return AirlinkError(
            .invalidArgument, "cannot \(call) the \(kind) \(shown): \(String(cString: strerror(code)))\(advice)",
            cause: .posix(errno: code, call: call), context: path)
    }
}

/// `write(2)`, named apart from ``OutputFile/write(_:to:kind:)``.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
