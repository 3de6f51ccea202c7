import AirlinkCore
import AirlinkSimulation
import Foundation
import Testing

@testable import AirlinkHCI

/// The controller's endpoint destroys nothing it did not create and says what it listens on: `--unix PATH`
/// removes only a stale socket (never a file, a directory or a live socket), and `--tcp 0` names the port the
/// system chose.
@Suite struct HostEndpointTests {
    /// A scratch directory, removed by the caller.
    private func directory() throws -> String {
        let path = NSTemporaryDirectory() + "airlink-endpoint-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The error listening at `path` throws, if any.
    private func listening(at path: String) -> (HostSocket?, AirlinkError?) {
        do {
            return (try HostSocket(.unix(path: path)), nil)
        } catch {
            return (nil, error)
        }
    }

    @Test func aRegularFileAtThePathIsLeftAlone() throws {
        // Given a regular file where the socket would go
        let scratch = try directory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = scratch + "/notes.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))

        // When the controller is asked to listen there
        let (socket, error) = listening(at: path)

        // Then it refuses, saying what is there, and the file is untouched
        #expect(socket == nil)
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("is a regular file, not a socket") == true, "\(String(describing: error))")
        #expect(FileManager.default.contents(atPath: path) == Data("keep me".utf8))
    }

    @Test func aDirectoryIsSaidToBeOne() throws {
        // Given a directory at the path
        let scratch = try directory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }

        // When the controller is asked to listen there
        let (socket, error) = listening(at: scratch)

        // Then it says it is a directory (not "Address already in use"), and leaves it
        #expect(socket == nil)
        #expect(error?.message.contains("is a directory") == true, "\(String(describing: error))")
        #expect(FileManager.default.fileExists(atPath: scratch))
    }

    @Test func aLiveSocketIsNotTakenOver() throws {
        // Given a controller listening at the path
        let scratch = try directory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = scratch + "/h.sock"
        let first = try HostSocket(.unix(path: path))

        // When a second one is asked to listen there
        let (second, error) = listening(at: path)

        // Then it refuses, and the first keeps its socket
        #expect(second == nil)
        #expect(error?.message.contains("is listening there") == true, "\(String(describing: error))")
        withExtendedLifetime(first) {
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
        }
    }

    @Test func aStaleSocketIsReplaced() throws {
        // Given a socket left by a controller that ended without removing it
        let scratch = try directory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = scratch + "/h.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = HostSocket.unixAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        close(fd)

        // When the controller is asked to listen there
        let (socket, error) = listening(at: path)

        // Then it listens
        #expect(error == nil)
        #expect(socket?.endpoint == .unix(path: path))
    }

    @Test func portZeroNamesThePortChosen() throws {
        // Given the controller asked to listen on TCP port 0 (any free port)
        let socket = try HostSocket(.tcp(port: 0))

        // Then its endpoint names the port it listens on
        guard case .tcp(let port) = socket.endpoint else {
            Issue.record("not a TCP endpoint: \(socket.endpoint)")
            return
        }
        #expect(port != 0)
        #expect("\(socket.endpoint)" == "tcp:127.0.0.1:\(port)")
    }
}
