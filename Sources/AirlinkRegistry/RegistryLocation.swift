import AirlinkCore
import Foundation

/// Where Airlink keeps the device registry by default: the user's data directory, as the XDG Base
/// Directory specification names it.
///
/// | variable set | directory |
/// |---|---|
/// | `XDG_DATA_HOME=/data` (an absolute path) | `/data/airlink` |
/// | otherwise, `HOME=/home/ada` | `/home/ada/.local/share/airlink` |
public enum RegistryLocation {
    /// The name of Airlink's folder inside the data directory.
    public static let folderName = "airlink"

    /// Airlink's data directory: `$XDG_DATA_HOME/airlink`, or `~/.local/share/airlink`.
    ///
    /// A relative `XDG_DATA_HOME` is ignored, as the specification says.
    ///
    /// - Parameter environment: the process environment to read `XDG_DATA_HOME` and `HOME` from.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/storageFailed`` if neither variable gives an absolute path.
    public static func dataDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(AirlinkError) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return StorePath.joined(data, folderName)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return StorePath.joined(home, ".local/share/\(folderName)")
        }
        throw AirlinkError(
            .storageFailed,
            "cannot find the user's data directory: neither XDG_DATA_HOME nor HOME is an absolute path; "
                + "set one, or give the repository a path")
    }

    /// The default path of a file named `name` in Airlink's data directory.
    ///
    /// - Parameters:
    ///   - name: the file's name, such as `devices.json`.
    ///   - environment: the process environment.
    /// - Throws: what ``dataDirectory(environment:)`` throws.
    public static func defaultPath(
        of name: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(AirlinkError) -> String {
        StorePath.joined(try dataDirectory(environment: environment), name)
    }
}

/// Path arithmetic on plain strings, as the POSIX calls take them.
package enum StorePath {
    /// `directory/name`, without doubling a slash.
    package static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The directory part of `path`: `.` for a bare name, `/` for a file at the root.
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path`.
    package static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
