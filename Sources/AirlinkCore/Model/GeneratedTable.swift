/// Reading the tables `Scripts/assigned-numbers` generates as strings (a key, a tab, a name, one entry a
/// line), which cost the compiler nothing where thousands of literal entries would.
enum GeneratedTable {
    /// The table's entries, each read into a key by `key`; lines without a tab or whose key does not read
    /// are left out.
    static func entries<Key: Hashable>(_ table: String, key: (String) -> Key?) -> [Key: String] {
        var entries: [Key: String] = [:]
        for line in table.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t"), let key = key(String(line[..<tab])) else { continue }
            entries[key] = String(line[line.index(after: tab)...])
        }
        return entries
    }
}
