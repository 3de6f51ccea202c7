import AirlinkCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Linux kernel's virtual HCI device (`/dev/vhci`, module `hci_vhci`): the controller opens it and the
/// kernel registers a new controller (`hciN`) whose host is the kernel itself, so that bluetoothd and every
/// Bluetooth application on the machine use the simulated world as an ordinary adapter.
///
/// The device carries one whole H4 packet per read and per write. The first write is the vendor packet
/// `ff 00` (create a primary controller); the kernel answers with `ff 00` and the new controller's index,
/// little-endian (drivers/bluetooth/hci_vhci.c, `__vhci_create_device`). Closing the device unregisters the
/// controller.
struct VirtualHCIDevice {
    /// The open device, read and written by the controller.
    let descriptor: Int32
    /// The kernel's index of the controller: `hci0` is 0.
    let index: UInt16

    /// How long the kernel has to answer the vendor packet.
    static let replyDeadline: Duration = .seconds(5)

    /// Opens `path` and asks the kernel for a primary controller.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when the device is missing (no `hci_vhci`),
    ///   not permitted (root or a udev rule is needed), or the kernel does not answer as `hci_vhci` does.
    init(path: String) throws(AirlinkError) {
        // Only a character device is opened for writing: the vendor packet must never land in a user's file or FIFO.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFCHR {
            let kind =
                status.st_mode & S_IFMT == S_IFDIR
                ? "a directory"
                : status.st_mode & S_IFMT == S_IFIFO
                    ? "a FIFO" : status.st_mode & S_IFMT == S_IFREG ? "a file" : "no device"
            throw AirlinkError(
                .invalidArgument,
                "\(path) is \(kind), not the kernel's virtual HCI device (/dev/vhci); it was left untouched")
        }
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            let advice =
                switch errno {
                case ENOENT:
                    "load the kernel's hci_vhci module (modprobe hci_vhci); a kernel without Bluetooth has none"
                case EACCES, EPERM: "run as root, or give your user the device with a udev rule (Docs/HCIController.md)"
                default: "check that \(path) is the kernel's virtual HCI device"
                }
            throw AirlinkError(.invalidArgument, "cannot open \(path): \(reason); \(advice)")
        }
        func fail(_ what: String) -> AirlinkError {
            close(fd)
            return AirlinkError(
                .invalidArgument, "\(path) is not a virtual HCI device the kernel answers: \(what)")
        }
        let request: [UInt8] = [0xFF, 0x00]
        let written = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == request.count else { throw fail("writing the vendor packet failed (\(errnoText()))") }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(Self.replyDeadline.components.seconds * 1_000)
        guard poll(&entry, 1, milliseconds) > 0 else {
            throw fail("no answer to the vendor packet within \(Self.replyDeadline)")
        }
        var reply = [UInt8](repeating: 0, count: 64)
        let count = reply.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count == 4, reply[0] == 0xFF, reply[1] == 0x00 else {
            let bytes = reply.prefix(max(0, count)).map { String($0, radix: 16) }.joined(separator: " ")
            throw fail("the answer to the vendor packet was [\(bytes)], not ff 00 and an index")
        }
        descriptor = fd
        index = UInt16(reply[2]) | UInt16(reply[3]) << 8
    }
}

private func errnoText() -> String { String(cString: strerror(errno)) }
