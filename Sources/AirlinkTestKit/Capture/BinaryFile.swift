import AirlinkCore
import Foundation

/// Writes bytes to a file (captures, reports).
public enum BinaryFile {
    /// Writes `bytes` to `path`, replacing the file.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when the file cannot be written.
    public static func write(_ bytes: [UInt8], to path: String) throws(AirlinkError) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw AirlinkError(.invalidArgument, "cannot write \(path): \(error); check the directory exists")
        }
    }
}
