/// A signal received on the bus.
package struct DBusSignal: Sendable {
    /// The object that emitted it.
    package var path: String
    /// Its interface (`org.freedesktop.DBus.Properties`).
    package var interface: String
    /// Its name (`PropertiesChanged`).
    package var member: String
    /// The sender's unique name (`:1.7`), if any.
    package var sender: String?
    /// The whole message, to decode the body with a checked signature.
    package var message: DBusMessage
}

/// A match rule (D-Bus Specification, "Match Rules"): what the bus sends us, and which subscriber
/// gets it.
package struct DBusMatchRule: Sendable, Hashable, CustomStringConvertible {
    /// The sender's bus name (`org.bluez`); checked by the bus only (signals carry unique names).
    package var sender: String?
    /// The signal's interface.
    package var interface: String?
    /// The signal's name.
    package var member: String?
    /// The exact object path.
    package var path: String?
    /// An object path namespace: the path itself and everything below it.
    package var pathNamespace: String?
    /// The first argument, when it is a string.
    package var arg0: String?

    /// Creates a rule for signals; `nil` fields match anything.
    package init(
        sender: String? = nil, interface: String? = nil, member: String? = nil, path: String? = nil,
        pathNamespace: String? = nil, arg0: String? = nil
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arg0 = arg0
    }

    /// The rule as the bus's `AddMatch` takes it: `type='signal',sender='org.bluez',...`.
    package var description: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        if let path { parts.append("path='\(path)'") }
        if let pathNamespace { parts.append("path_namespace='\(pathNamespace)'") }
        if let arg0 { parts.append("arg0='\(arg0)'") }
        return parts.joined(separator: ",")
    }

    /// Whether a received signal matches the rule's interface, member, path and namespace (the sender
    /// is left to the bus).
    package func matches(path signalPath: String, interface signalInterface: String, member signalMember: String)
        -> Bool
    {
        if let interface, interface != signalInterface { return false }
        if let member, member != signalMember { return false }
        if let path, path != signalPath { return false }
        if let pathNamespace, pathNamespace != "/" {
            guard signalPath == pathNamespace || signalPath.hasPrefix(pathNamespace + "/") else { return false }
        }
        return true
    }
}
