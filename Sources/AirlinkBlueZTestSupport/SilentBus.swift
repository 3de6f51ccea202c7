import Foundation
import Glibc

/// A D-Bus address whose socket accepts connections (the kernel queues them) and never answers: a peer that
/// never answers, for the deadline of opening a bus. Closed by ``close()``.
package final class SilentBus: Sendable {
    /// `unix:path=...`, for `DBUS_SYSTEM_BUS_ADDRESS` or `DBusConnection.Bus.address`.
    package let address: String
    private let directory: String
    private let fd: Int32

    /// Listens on a new socket in a directory of its own.
    package init() throws {
        directory = NSTemporaryDirectory() + "airlink-silent-bus-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/bus"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, bound == 0, listen(fd, 64) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        self.fd = fd
        self.address = "unix:path=" + path
    }

    /// Stops listening and removes the socket.
    package func close() {
        _ = Glibc.close(fd)
        try? FileManager.default.removeItem(atPath: directory)  // a scratch directory: nothing to report
    }
}
