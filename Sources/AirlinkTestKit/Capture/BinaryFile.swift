import AirlinkCore

/// Writes bytes to a file (captures, reports), as every file output is written (``/AirlinkCore/OutputFile``).
public enum BinaryFile {
    /// Writes `bytes` to `path`, replacing the file (a device or a FIFO with a reader is written into).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when the file cannot be written, or the path is
    ///   a directory, a socket or a FIFO nobody reads.
    ///
    /// - Parameters:
    ///   - bytes: the file's content.
    ///   - path: where.
    ///   - kind: what the file is, for messages (`report`, `capture`).
    public static func write(_ bytes: [UInt8], to path: String, kind: String = "file") throws(AirlinkError) {
        try OutputFile.write(bytes, to: path, kind: kind)
    }
}
