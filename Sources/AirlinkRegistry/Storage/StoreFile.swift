import AirlinkCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX file operations the stores are built on: atomic replacement, an advisory lock, and
/// moving a corrupt file aside. Each failure is an ``/AirlinkCore/AirlinkError`` naming the path and the call.
package enum StoreFile {
    /// Identifies one version of a file: stores replace files by `rename`, never in place, so a
    /// file kept open keeps its inode, and an equal stamp means the same content.
    package struct Stamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            #if canImport(Darwin)
                modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
                modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
            #else
                modifiedSeconds = Int64(info.st_mtim.tv_sec)
                modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
            #endif
        }
    }

    /// An open file descriptor, closed when the last reference goes.
    package final class Descriptor {
        package let fd: Int32
        init(_ fd: Int32) { self.fd = fd }
        deinit { close(fd) }
    }

    /// The error for a failed call, with `errno`'s text.
    package static func failure(_ call: String, _ doing: String, path: String, errno code: Int32 = errno)
        -> AirlinkError
    {
        AirlinkError(
            .storageFailed, "\(doing) \(path) failed: \(String(cString: strerror(code)))",
            cause: .posix(errno: code, call: call), context: path)
    }

    /// The stamp of the file at `path`, or `nil` if there is none.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/storageFailed`` if `path` (or what a symbolic link there points
    ///   to) is not a regular file: a store never reads, renames or replaces a FIFO, a device or a
    ///   directory.
    package static func stamp(of path: String) throws(AirlinkError) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw failure("stat", "checking", path: path)
        }
        try requireRegular(info, path: path)
        return Stamp(info)
    }

    /// Throws unless `path` is a regular file or does not exist; follows a symbolic link.
    package static func requireRegularOrMissing(_ path: String) throws(AirlinkError) {
        _ = try stamp(of: path)
    }

    /// Throws ``/AirlinkCore/AirlinkError/Code/storageFailed`` unless `info` describes a regular file.
    static func requireRegular(_ info: stat, path: String) throws(AirlinkError) {
        // The same words as every other file input's (InputFile), with the registry's own advice.
        guard let what = InputFile.nonRegularKind(info.st_mode) else { return }
        let kind = info.st_mode & S_IFMT
        throw AirlinkError(
            .storageFailed,
            "\(path) is \(what), not a regular file; a registry is kept in a regular file: give the path of "
                + "a file, or of one to create, such as ~/devices.json",
            cause: .posix(errno: kind == S_IFDIR ? EISDIR : EINVAL, call: "stat"), context: path)
    }

    /// Opens `path` for reading and reads it whole, or returns `nil` if there is no such file.
    ///
    /// Opens without blocking (a FIFO would wait for a writer) and checks the open file is regular
    /// before reading a byte.
    ///
    /// - Returns: the open file (keep it to keep the stamp meaningful), its stamp and its bytes.
    package static func read(_ path: String) throws(AirlinkError) -> (Descriptor, Stamp, [UInt8])? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("open", "opening", path: path)
        }
        let file = Descriptor(fd)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("fstat", "checking", path: path) }
        try requireRegular(info, path: path)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", "reading", path: path)
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return (file, Stamp(info), bytes)
    }

    /// Replaces `path` with `bytes` so that no crash leaves a torn file: writes a new temporary file
    /// beside it (``createTemporary(beside:)``), flushes it to the disk (`fsync`), renames it over
    /// `path` and flushes the directory. A failure removes the temporary file.
    ///
    /// - Returns: the new file, still open, and its stamp.
    package static func replace(_ path: String, with bytes: [UInt8]) throws(AirlinkError) -> (Descriptor, Stamp) {
        let (file, temporaryPath) = try createTemporary(beside: path)
        var renamed = false
        defer { if !renamed { unlink(temporaryPath) } }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                systemWrite(file.fd, $0.baseAddress! + written, $0.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("write", "writing", path: temporaryPath)
            }
            written += count
        }
        guard fsync(file.fd) == 0 else { throw failure("fsync", "flushing", path: temporaryPath) }
        var info = stat()
        guard fstat(file.fd, &info) == 0 else { throw failure("fstat", "checking", path: temporaryPath) }
        guard rename(temporaryPath, path) == 0 else { throw failure("rename", "replacing", path: path) }
        renamed = true
        try syncDirectory(of: path)
        return (file, Stamp(info))
    }

    /// Creates a new, empty file `<path>.tmp-XXXXXX` with a fresh name (`mkstemp`: `O_CREAT | O_EXCL`,
    /// mode 0600), so that nothing planted there, a symbolic link least of all, is followed or
    /// overwritten.
    ///
    /// - Returns: the open file and its path.
    package static func createTemporary(beside path: String) throws(AirlinkError) -> (Descriptor, String) {
        var template = Array("\(path).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let created = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard fd >= 0 else { throw failure("mkstemp", "creating", path: created) }
        let file = Descriptor(fd)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return (file, created)
    }

    /// Flushes the directory holding `path`, so that a rename or creation in it survives a crash.
    package static func syncDirectory(of path: String) throws(AirlinkError) {
        let directory = StorePath.directory(of: path)
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", "opening directory", path: directory) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("fsync", "flushing directory", path: directory) }
    }

    /// Creates the directory that will hold `path`, and its parents, readable by the user only.
    package static func createDirectory(for path: String) throws(AirlinkError) {
        let directory = StorePath.directory(of: path)
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw failure("mkdir", "creating directory", path: prefix)
            }
            prefix += "/"
        }
    }

    /// Opens (creating if needed) the lock file at `path`: never through a symbolic link, never
    /// blocking on a FIFO, and only if it is a regular file.
    package static func openLock(_ path: String) throws(AirlinkError) -> Descriptor {
        try createDirectory(for: path)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o600)
        guard fd >= 0 else { throw failure("open", "opening lock file", path: path) }
        let file = Descriptor(fd)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("fstat", "checking", path: path) }
        try requireRegular(info, path: path)
        return file
    }

    /// How long a writer waits for another to release the lock before failing, as SQLite's busy
    /// timeout: a writer stopped (SIGSTOP) or hung while holding it must not block others forever.
    package static let lockTimeout: Duration = .seconds(5)

    /// Runs `body` holding an exclusive `flock` on `lock`, which excludes other processes and other
    /// open descriptions of the same file in this process. `body` must not suspend.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/storageFailed`` if the lock stays held by another for
    ///   ``lockTimeout``; what `body` throws.
    package static func withLock<Result>(
        _ lock: Descriptor, path: String, _ body: () throws(AirlinkError) -> Result
    ) throws(AirlinkError) -> Result {
        // Real time, not a simulation's: the wait is for another process, and the clock is read only
        // while another holds the lock (never in a run where this process is the only writer).
        var deadline: ContinuousClock.Instant?
        var pause = 100_000  // nanoseconds, doubled up to 10 ms
        while flock(lock.fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw failure("flock", "locking", path: path) }
            let now = ContinuousClock.now
            let giveUp = deadline ?? now + lockTimeout
            deadline = giveUp
            guard now < giveUp else {
                throw AirlinkError(
                    .storageFailed,
                    "another writer has held the lock \(path) for \(lockTimeout.text); if no Airlink process is "
                        + "using the registry, a stopped one may be: end it",
                    cause: .posix(errno: EWOULDBLOCK, call: "flock"),
                    context: path)
            }
            var interval = timespec(tv_sec: 0, tv_nsec: pause)
            nanosleep(&interval, nil)
            pause = min(pause * 2, 10_000_000)
        }
        defer { flock(lock.fd, LOCK_UN) }
        return try body()
    }

    /// Moves `path` aside to `path.corrupt-N`, the first N from 1 that is free, with each of
    /// `companionSuffixes` (SQLite's `-wal`, `-shm`) moved along to `path.corrupt-N<suffix>`.
    ///
    /// Moves only regular files (checked without following a symbolic link, which is moved as the
    /// link): never a device, a FIFO or a directory.
    ///
    /// - Returns: the path the file now has.
    package static func moveAside(_ path: String, companionSuffixes: [String] = []) throws(AirlinkError) -> String {
        for suffix in [""] + companionSuffixes {
            var info = stat()
            guard lstat(path + suffix, &info) == 0 else { continue }
            if info.st_mode & S_IFMT != S_IFLNK { try requireRegular(info, path: path + suffix) }
            _ = try stamp(of: path + suffix)
        }
        var number = 1
        while try stamp(of: "\(path).corrupt-\(number)") != nil { number += 1 }
        let target = "\(path).corrupt-\(number)"
        guard rename(path, target) == 0 else { throw failure("rename", "moving aside", path: path) }
        for suffix in companionSuffixes where try stamp(of: path + suffix) != nil {
            guard rename(path + suffix, target + suffix) == 0 else {
                throw failure("rename", "moving aside", path: path + suffix)
            }
        }
        try syncDirectory(of: path)
        return target
    }
}

/// `read(2)`, named apart from ``StoreFile/read(_:)``.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// `write(2)`.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
