extension ConnectionRecord {
    /// The longest name a record keeps, in UTF-8 bytes: a GAP Device Name's limit (Core Spec Vol 3,
    /// Part C, 12.1).
    public static let maximumNameLength = 248

    /// `name` as a record keeps it: each control character (C0, DEL, C1, such as a terminal's escape
    /// sequences an advertiser could send) replaced by U+FFFD, and cut to ``maximumNameLength``
    /// bytes at a character boundary.
    ///
    /// Names come from devices, so a registry sanitizes rather than refuses them: records made by
    /// ``init(id:name:services:firstConnected:lastConnected:connectionCount:databaseHash:database:bond:)``,
    /// ``recording(_:)`` or read from a store hold sanitized names.
    ///
    /// - Parameter name: the name a device gave.
    /// - Returns: the name to store.
    public static func sanitizedName(_ name: String) -> String {
        var result = ""
        var length = 0
        for character in name {
            let clean =
                character.unicodeScalars.contains { $0.properties.generalCategory == .control }
                ? "\u{FFFD}" : character
            length += clean.utf8.count
            guard length <= maximumNameLength else { break }
            result.append(clean)
        }
        return result
    }
}
