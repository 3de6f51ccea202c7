import AirlinkCore
import Glibc

extension DBusError {
    /// This failure to open a connection to `bus` as the error an app or the CLI reports: `timeout` for a bus
    /// that never answered, else `transportUnavailable`; both say what to check, naming
    /// `DBUS_SYSTEM_BUS_ADDRESS` when it is set; the bus's words are the cause.
    ///
    /// - Parameters:
    ///   - bus: the bus that was opened.
    ///   - context: what was being done (`opening bluez:hci0`).
    package func openingError(_ bus: DBusConnection.Bus, context: String) -> AirlinkError {
        let variable = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
        let check =
            "is dbus running? (`systemctl status dbus`)"
            + (variable.map {
                "; DBUS_SYSTEM_BUS_ADDRESS is \"\($0.escapingControlCharacters())\": check it names the socket of "
                    + "a running D-Bus daemon (unix:path=/run/dbus/system_bus_socket), or unset it"
            } ?? "")
        if case .timeout(_, let after) = self {
            return AirlinkError(
                .timeout, "the D-Bus \(bus) accepted the connection but did not answer within \(after.text): \(check)",
                cause: .other(description), context: context)
        }
        return AirlinkError(
            .transportUnavailable, "cannot reach the D-Bus \(bus) to talk to BlueZ: \(check)",
            cause: .other(description), context: context)
    }
}
