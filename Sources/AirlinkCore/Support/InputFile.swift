#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file a user names (a scenario, a recording, a world, a configuration), held to the rules of every
/// file input: only a regular file is read; a FIFO, a directory, a device or a socket is refused before a
/// byte is read, and never blocks (the file is opened with `O_NONBLOCK` and checked with `fstat`); its size
/// is checked against the limit before reading, and no more than the limit is ever read.
public enum InputFile {
    /// What a file that is not regular is, for messages ("a FIFO (named pipe)"); `nil` for a regular file.
    ///
    /// - Parameter mode: `st_mode` from `stat`.
    public static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// The bytes of the regular file at `path`, at most `maximumSize`.
    ///
    /// - Parameters:
    ///   - path: the file (a symbolic link is followed).
    ///   - kind: what the file is, for messages (`scenario`, `recording`, `world`).
    ///   - maximumSize: the most bytes accepted.
    ///   - advice: what to give instead, for messages (`such as Simulations/x.yaml`).
    /// - Returns: the bytes, or `nil` when there is no file at `path`.
    /// - Throws: ``AirlinkError/Code/invalidArgument`` naming the path and what it is (a FIFO, a directory, a
    ///   device, a socket), or its size and the limit, or the failing call (`.posix(errno:call:)`).
    public static func read(_ path: String, kind: String, maximumSize: Int, advice: String) throws(AirlinkError)
        -> [UInt8]?
    {
        let shown = path.escapingControlCharacters()
        // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw AirlinkError(
                .invalidArgument, "cannot open the \(kind) \(shown): \(String(cString: strerror(code)))",
                cause: .posix(errno: code, call: "open"), context: path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            throw AirlinkError(
                .invalidArgument, "cannot check the \(kind) \(shown): \(String(cString: strerror(code)))",
                cause: .posix(errno: code, call: "fstat"), context: path)
        }
        if let what = nonRegularKind(info.st_mode) {
            throw AirlinkError(
                .invalidArgument, "\(shown) is \(what), not a regular file: give a \(kind) file, \(advice)",
                cause: .posix(errno: what == "a directory" ? EISDIR : EINVAL, call: "fstat"), context: path)
        }
        guard info.st_size <= maximumSize else {
            throw AirlinkError(
                .invalidArgument,
                "the \(kind) \(shown) is \(info.st_size) bytes, larger than \(maximumSize) bytes, the most read",
                context: path)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        // Reads to the end, never past the limit: a file that grows while it is read is refused too.
        while bytes.count <= maximumSize {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw AirlinkError(
                    .invalidArgument, "cannot read the \(kind) \(shown): \(String(cString: strerror(code)))",
                    cause: .posix(errno: code, call: "read"), context: path)
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
        guard bytes.count <= maximumSize else {
            throw AirlinkError(
                .invalidArgument, "the \(kind) \(shown) is larger than \(maximumSize) bytes, the most read",
                context: path)
        }
        return bytes
    }
}

/// `read(2)`, named apart from ``InputFile/read(_:kind:maximumSize:advice:)``.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
