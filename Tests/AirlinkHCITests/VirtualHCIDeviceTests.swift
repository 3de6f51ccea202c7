import AirlinkCore
import Foundation
import Testing

@testable import AirlinkHCI

/// `--vhci-device PATH` pointed at something that is not the kernel's virtual HCI device: refused, saying what it
/// is, and never written to (the vendor packet once landed in a regular file given by mistake).
@Suite("HCI controller: a --vhci device that is none")
struct VirtualHCIDeviceTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("airlink-vhci-\(getpid())").path

    @Test("a regular file is refused and left as it was")
    func regularFile() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/notes.txt"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: AirlinkError.self) { _ = try HostSocket(.vhci(path: path, index: nil)) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
    }

    @Test("a FIFO and a directory are refused at once, saying what they are")
    func fifoAndDirectory() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fifo = folder + "/fifo"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "a FIFO"), (folder, "a directory")] {
            do {
                _ = try HostSocket(.vhci(path: path, index: nil))
                Issue.record("\(path) was taken as a virtual HCI device")
            } catch {
                #expect(error.message.contains("is \(kind)"), "\(error.message)")
            }
        }
    }
}
