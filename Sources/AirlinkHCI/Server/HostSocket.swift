import AirlinkCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the controller listens for its host: a TCP port on the loopback interface, a Unix socket or a
/// pseudo-terminal.
public enum HostEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// `127.0.0.1:port` (Bumble's `tcp-client:127.0.0.1:port`).
    case tcp(port: UInt16)
    /// A Unix domain socket at a path (Bumble's `unix:path`).
    case unix(path: String)
    /// A pseudo-terminal the controller opens: `path` is its slave's (`/dev/pts/N`, Bumble's `serial:PATH`),
    /// `nil` when asking for a new one.
    case pty(path: String?)
    /// The Linux kernel's virtual HCI device at `path` (`/dev/vhci`): the kernel is the host, and the controller
    /// becomes `hci<index>` (`index` is `nil` until the kernel has answered).
    case vhci(path: String, index: UInt16?)

    /// `tcp:127.0.0.1:9000`, `unix:/tmp/airlink.sock`, `pty:/dev/pts/3`.
    public var description: String {
        switch self {
        case .tcp(let port): "tcp:127.0.0.1:\(port)"
        case .unix(let path): "unix:\(path)"
        case .pty(let path): "pty:\(path ?? "(new)")"
        case .vhci(let path, let index): "vhci:\(path)" + (index.map { " (hci\($0))" } ?? "")
        }
    }
}

/// A listening socket and the one host connected to it, with non-blocking reads that wait at most a given
/// time (poll(2)): the paced run's `between` step blocks here, never longer than a step.
final class HostSocket: @unchecked Sendable {
    // @unchecked: used by the paced run's driver thread only.
    private let listener: Int32
    private var client: Int32 = -1
    /// Where it listens; a pseudo-terminal's with its slave's path.
    let endpoint: HostEndpoint
    private let terminal: PseudoTerminal?
    private let device: VirtualHCIDevice?
    /// Whether the host's line is a file (a pseudo-terminal or /dev/vhci) rather than a socket.
    private var isFile: Bool { terminal != nil || device != nil }

    /// Listens at `endpoint`.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the endpoint and the system's reason
    ///   (port in use, path too long or not writable).
    init(_ endpoint: HostEndpoint) throws(AirlinkError) {
        if case .vhci(let path, _) = endpoint {
            // Always "connected": the kernel is the host, for as long as the device stays open.
            let device = try VirtualHCIDevice(path: path)
            self.device = device
            self.endpoint = .vhci(path: path, index: device.index)
            terminal = nil
            listener = -1
            client = device.descriptor
            return
        }
        device = nil
        if case .pty = endpoint {
            // Always "connected": the master is the host's line; a host that goes away is not seen.
            let terminal = try PseudoTerminal()
            self.terminal = terminal
            self.endpoint = .pty(path: terminal.path)
            listener = -1
            client = terminal.master
            return
        }
        terminal = nil
        func failure(_ what: String) -> AirlinkError {
            AirlinkError(
                .invalidArgument, "cannot listen on \(endpoint): \(what) failed: \(String(cString: strerror(errno)))")
        }
        let fd: Int32
        switch endpoint {
        case .tcp(let port):
            fd = try Self.socket(AF_INET, failure)
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            try Self.bind(fd, &address, failure)
        case .unix(let path):
            try Self.removeStaleSocket(at: path, endpoint)
            let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
            guard path.utf8.count < capacity else {
                throw AirlinkError(
                    .invalidArgument,
                    "cannot listen on \(endpoint): the path is over \(capacity - 1) bytes; use a shorter one")
            }
            fd = try Self.socket(AF_UNIX, failure)
            var address = Self.unixAddress(path)
            try Self.bind(fd, &address, failure)
        case .pty, .vhci:
            fd = -1  // opened above
        }
        listener = fd
        guard listen(listener, 1) == 0 else {
            let error = failure("listen")
            close(listener)
            throw error
        }
        // Port 0 asks the system for a free port: the endpoint names the one it chose.
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        if case .tcp(port: 0) = endpoint, named == 0 {
            self.endpoint = .tcp(port: UInt16(bigEndian: bound.sin_port))
        } else {
            self.endpoint = endpoint
        }
    }

    /// Makes way for a socket at `path`: removes a stale socket (one nobody listens on), and refuses anything
    /// else (a live socket, a regular file, a directory...), which is not the controller's to destroy.
    private static func removeStaleSocket(at path: String, _ endpoint: HostEndpoint) throws(AirlinkError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // nothing there (or unreadable: bind says why)
        let shown = path.escapingControlCharacters()
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            let what = InputFile.nonRegularKind(info.st_mode) ?? "a regular file"
            let link = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : what
            throw AirlinkError(
                .invalidArgument,
                "cannot listen on \(endpoint): \(shown) is \(link), not a socket; the controller removes only a "
                    + "stale socket: give a path where nothing is, such as /tmp/airlink.sock")
        }
        // A socket someone listens on answers a connection; a stale one refuses it.
        // try?: with no socket to probe with, bind says whether the path can be had, and why not
        guard let probe = try? socket(AF_UNIX, { _ in AirlinkError(.internalError, "no socket") }) else {
            return
        }
        defer { close(probe) }
        var address = unixAddress(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected != 0 else {
            throw AirlinkError(
                .invalidArgument,
                "cannot listen on \(endpoint): another program is listening there; stop it, or give another path")
        }
        guard errno == ECONNREFUSED else {
            throw AirlinkError(
                .invalidArgument,
                "cannot listen on \(endpoint): cannot tell whether the socket there is in use: "
                    + "\(String(cString: strerror(errno))); remove it, or give another path")
        }
        unlink(path)
    }

    /// The address of the Unix socket at `path` (shorter than `sun_path`, checked by the caller).
    static func unixAddress(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        return address
    }

    /// A stream socket of `family`.
    private static func socket(_ family: Int32, _ failure: (String) -> AirlinkError) throws(AirlinkError) -> Int32 {
        #if canImport(Glibc)
            let fd = Glibc.socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = Darwin.socket(family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw failure("socket") }
        return fd
    }

    /// Binds `fd` to `address` (a `sockaddr_in` or `sockaddr_un`); closes it when that fails.
    private static func bind<Address>(_ fd: Int32, _ address: inout Address, _ failure: (String) -> AirlinkError)
        throws(AirlinkError)
    {
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                #if canImport(Glibc)
                    Glibc.bind(fd, pointer, socklen_t(MemoryLayout<Address>.size))
                #else
                    Darwin.bind(fd, pointer, socklen_t(MemoryLayout<Address>.size))
                #endif
            }
        }
        guard bound == 0 else {
            let error = failure("bind")
            close(fd)
            throw error
        }
    }

    deinit {
        if let terminal {
            terminal.closeBoth()
            return
        }
        if let device {
            close(device.descriptor)
            return
        }
        if client >= 0 { close(client) }
        close(listener)
        if case .unix(let path) = endpoint { unlink(path) }
    }

    /// Whether a host is connected.
    var hasHost: Bool { client >= 0 }

    /// Accepts a host if one is waiting, waiting at most `timeout`; returns whether one was accepted.
    func acceptHost(waiting timeout: Duration) -> Bool {
        guard client < 0, wait(listener, timeout) else { return false }
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return false }
        if case .tcp = endpoint {
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        client = fd
        return true
    }

    /// What the host sent, waiting at most `timeout` for something: empty if nothing came, `nil` once the host
    /// has gone (the connection is closed then).
    func read(waiting timeout: Duration) -> [UInt8]? {
        guard client >= 0 else { return nil }
        guard wait(client, timeout) else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes {
            !isFile
                ? recv(client, $0.baseAddress, $0.count, 0) : Self.readFile(client, $0.baseAddress, $0.count)
        }
        guard count > 0 else {
            dropHost()
            return nil
        }
        return Array(buffer[0..<count])
    }

    /// What became of bytes sent to the host.
    enum WriteOutcome: Equatable {
        /// The host took them all, or went away (a socket's host is dropped; the next read learns it).
        case written
        /// The host on a socket read nothing within the deadline: it was dropped.
        case hostStalled
        /// The write to the file (/dev/vhci, a pseudo-terminal) failed: the packet is lost, for this reason.
        case failed(String)
    }

    /// Sends bytes to the host, all of them, each part once the host can take it: a host that went away, or a host on
    /// a socket that reads nothing for `deadline` while the controller has bytes for it, is dropped (a host that writes
    /// without reading would otherwise fill the connection both ways and stall the controller for good).
    @discardableResult
    func write(_ bytes: [UInt8], deadline: Duration) -> WriteOutcome {
        var sent = 0
        while client >= 0, sent < bytes.count {
            // A socket only: /dev/vhci reports no POLLOUT while the kernel has packets for the controller to read
            // (it is always writable), and a pseudo-terminal keeps the blocking write it always had.
            guard isFile || wait(client, deadline, for: Int16(POLLOUT)) else {
                dropHost()
                return .hostStalled
            }
            let count = bytes[sent...].withUnsafeBytes {
                !isFile
                    ? send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    : Self.writeFile(client, $0.baseAddress, $0.count)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                // A file stays open (the kernel's adapter may come back); what was lost is said
                if isFile { return .failed(count < 0 ? String(cString: strerror(errno)) : "nothing was written") }
                dropHost()
                return .written
            }
            sent += count
        }
        return .written
    }

    /// Closes the host's connection.
    func dropHost() {
        guard client >= 0, !isFile else { return }
        close(client)
        client = -1
    }

    /// read(2), for a pseudo-terminal (recv wants a socket).
    private static func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(fd, buffer, count)
        #else
            Darwin.read(fd, buffer, count)
        #endif
    }

    /// write(2), for a pseudo-terminal.
    private static func writeFile(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, buffer, count)
        #else
            Darwin.write(fd, buffer, count)
        #endif
    }

    /// Whether `fd` is ready for `events` (readable unless told otherwise) within `timeout`; a closed peer counts as
    /// ready, so that the read or write that follows learns it.
    private func wait(_ fd: Int32, _ timeout: Duration, for events: Int16 = Int16(POLLIN)) -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        return poll(&entry, 1, max(0, milliseconds)) > 0
    }
}
