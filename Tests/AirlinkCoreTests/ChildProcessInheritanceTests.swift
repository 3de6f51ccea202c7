import Foundation
import Testing

@testable import AirlinkCore

/// A child Airlink starts inherits its standard input, output and error and nothing else the process holds open: a
/// descriptor opened without `O_CLOEXEC` (a FIFO's end, a socket) would otherwise live on in the child.
@Suite struct ChildProcessInheritanceTests {
    @Test func aChildSeesOnlyItsStandardDescriptors() throws {
        // Given a descriptor this process holds without FD_CLOEXEC
        let held = open("/dev/null", O_RDONLY)
        #expect(held > 2)
        defer { close(held) }

        // When a child lists its own descriptors
        let result = try ChildProcess.run(
            ["/bin/ls", "/proc/self/fd"], deadline: .seconds(30), maximumOutput: 64 * 1024)

        // Then it has 0, 1, 2 and the one ls opened to list them, not the held one
        let listed = String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        #expect(listed.filter { $0 > 3 }.isEmpty, "the child inherited \(listed)")
        #expect(!listed.contains(Int(held)) || held == 3, "\(listed)")
    }
}
