import AirlinkCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pseudo-terminal whose master side the controller speaks H4 on; a host opens the slave's path as a
/// serial controller (`btattach -B PATH -P h4`, Bumble's `serial:PATH`).
///
/// The controller keeps a slave descriptor of its own open, in raw mode: the master then never reads a hang-up
/// between hosts, and the line discipline neither echoes nor translates a byte.
struct PseudoTerminal {
    /// The master side, read and written by the controller.
    let master: Int32
    /// The controller's own slave descriptor, never read.
    let heldSlave: Int32
    /// The slave's path (`/dev/pts/N`).
    let path: String

    /// Opens one (posix_openpt, grantpt, unlockpt, ptsname).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the call that failed and the system's
    ///   reason.
    init() throws(AirlinkError) {
        func failure(_ what: String) -> AirlinkError {
            AirlinkError(
                .invalidArgument, "cannot open a pseudo-terminal: \(what) failed: \(String(cString: strerror(errno)))")
        }
        // Swift's Glibc module leaves out the XSI pseudo-terminal calls: looked up in the C library by name.
        guard let calls = Calls() else { throw failure("looking up posix_openpt") }
        let master = calls.openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw failure("posix_openpt") }
        var name = [CChar](repeating: 0, count: 128)
        guard calls.grant(master) == 0, calls.unlock(master) == 0, calls.name(master, &name, name.count) == 0 else {
            let error = failure("grantpt, unlockpt or ptsname")
            _ = close(master)
            throw error
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(path, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            let error = failure("opening \(path)")
            _ = close(master)
            throw error
        }
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        self.master = master
        self.heldSlave = slave
        self.path = path
    }

    /// Closes both descriptors.
    func closeBoth() {
        _ = close(heldSlave)
        _ = close(master)
    }

    /// posix_openpt, grantpt, unlockpt and ptsname_r, from the C library.
    private struct Calls {
        let openpt: @convention(c) (Int32) -> Int32
        let grant: @convention(c) (Int32) -> Int32
        let unlock: @convention(c) (Int32) -> Int32
        let name: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

        init?() {
            let library = dlopen(nil, RTLD_NOW)
            func look<Call>(_ symbol: String, as: Call.Type) -> Call? {
                dlsym(library, symbol).map { unsafeBitCast($0, to: Call.self) }
            }
            guard let openpt = look("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
                let grant = look("grantpt", as: (@convention(c) (Int32) -> Int32).self),
                let unlock = look("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
                let name = look(
                    "ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
            else { return nil }
            (self.openpt, self.grant, self.unlock, self.name) = (openpt, grant, unlock, name)
        }
    }
}
