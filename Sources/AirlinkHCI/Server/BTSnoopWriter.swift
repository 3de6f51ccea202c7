import AirlinkCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes the controller's HCI traffic as a btsnoop file (version 1, datalink 1002: H4), as it happens;
/// Wireshark and `tshark -r FILE` read it. Time stamps are the simulation's virtual times from 1970-01-01.
final class BTSnoopWriter: @unchecked Sendable {
    // @unchecked: used by the paced run's driver thread only.
    private let file: UnsafeMutablePointer<FILE>
    /// Whether the capture is a pipe (a FIFO, `/dev/stdout` piped), whose reader may leave.
    private let isPipe: Bool
    /// Whether a write failed (the reader left, the disk filled): the capture stopped there.
    private var stopped = false

    /// The btsnoop epoch: microseconds from year 0 to 1970-01-01.
    private static let epoch: UInt64 = 0x00dc_ddb3_0f2f_8000

    /// Creates (or truncates) the file at `path` and writes its header; a FIFO with a reader or a device is
    /// written into (`OutputFile.openToAppend(_:kind:)`).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when the file cannot be created, or the path is
    ///   a directory, a socket or a FIFO nobody reads.
    init(path: String) throws(AirlinkError) {
        let fd = try OutputFile.openToAppend(path, kind: "btsnoop capture")
        guard let file = fdopen(fd, "wb") else {
            let code = errno
            close(fd)
            throw AirlinkError(
                .invalidArgument, "cannot write the btsnoop capture \(path): \(String(cString: strerror(code)))")
        }
        self.file = file
        var info = stat()
        isPipe = fstat(fd, &info) == 0 && info.st_mode & S_IFMT != S_IFREG
        var header = Array("btsnoop".utf8) + [0]
        Self.append32(1, to: &header)
        Self.append32(1002, to: &header)
        put(header)
    }

    deinit { fclose(file) }

    /// Records one packet: `fromHost` for host-to-controller traffic, at `time`.
    ///
    /// - Returns: why the capture stopped, the first time a write fails (a FIFO's reader left: EPIPE, never a
    ///   SIGPIPE; the disk filled); `nil` otherwise. Nothing more is written after.
    @discardableResult
    func record(_ packet: HCIPacket, fromHost: Bool, at time: Duration) -> String? {
        guard !stopped else { return nil }
        let bytes = packet.h4
        var record: [UInt8] = []
        Self.append32(UInt32(bytes.count), to: &record)
        Self.append32(UInt32(bytes.count), to: &record)
        let isCommandOrEvent = packet.indicator != .acl
        Self.append32((fromHost ? 0 : 1) | (isCommandOrEvent ? 2 : 0), to: &record)
        Self.append32(0, to: &record)
        let stamp =
            Self.epoch + UInt64(max(0, time.components.seconds)) * 1_000_000
            + UInt64(time.components.attoseconds / 1_000_000_000_000)
        Self.append32(UInt32(stamp >> 32), to: &record)
        Self.append32(UInt32(stamp & 0xFFFF_FFFF), to: &record)
        return put(record + bytes)
    }

    /// Writes and flushes `bytes`; why it failed, once.
    @discardableResult
    private func put(_ bytes: [UInt8]) -> String? {
        let restore = isPipe ? OutputFile.blockBrokenPipeSignal() : {}
        defer { restore() }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count, fflush(file) == 0 else {
            stopped = true
            return "the btsnoop capture stopped: \(String(cString: strerror(errno)))"
        }
        return nil
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
