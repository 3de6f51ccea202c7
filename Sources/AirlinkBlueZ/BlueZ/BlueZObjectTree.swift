import AirlinkCore

/// BlueZ's objects as `ObjectManager.GetManagedObjects` gives them, kept current from
/// `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged` (BlueZ doc/org.freedesktop.DBus.ObjectManager).
///
/// A value type: the transport applies each signal under its lock, in arrival order.
package struct BlueZObjectTree: Sendable {
    /// Properties by name, variants unwrapped.
    package typealias Properties = [String: DBusValue]

    /// path -> interface -> properties.
    package private(set) var objects: [String: [String: Properties]] = [:] {
        didSet { attributeIndex.removeAll() }
    }
    /// device path -> handle -> attribute, built on first lookup and dropped whenever objects change
    /// (reads and writes look a handle up on every call).
    var attributeIndex: [String: [ATTHandle: Attribute]] = [:]

    /// An empty tree.
    package init() {}

    /// The tree from a `GetManagedObjects` reply.
    ///
    /// - Throws: ``DBusError/unexpectedSignature(expected:actual:context:)`` unless the reply is `a{oa{sa{sv}}}`.
    package init(managedObjects reply: DBusMessage) throws(DBusError) {
        let arguments = try reply.arguments(expecting: "a{oa{sa{sv}}}", context: "reply to GetManagedObjects")
        guard case .dictionary(_, _, let entries)? = arguments.first else {
            throw .malformed("reply to GetManagedObjects has no dictionary")
        }
        for entry in entries {
            guard case .objectPath(let path) = entry.key else { continue }
            objects[path] = try Self.interfaces(entry.value, context: "GetManagedObjects \(path)")
        }
    }

    /// Decodes `a{sa{sv}}`.
    static func interfaces(_ value: DBusValue, context: String) throws(DBusError) -> [String: Properties] {
        guard case .dictionary("s", "a{sv}", let entries) = value else {
            throw .unexpectedSignature(expected: "a{sa{sv}}", actual: value.signature, context: context)
        }
        var result: [String: Properties] = [:]
        for entry in entries {
            guard case .string(let interface) = entry.key else { continue }
            result[interface] = try properties(entry.value, context: "\(context) \(interface)")
        }
        return result
    }

    /// Decodes `a{sv}`, unwrapping the variants.
    static func properties(_ value: DBusValue, context: String) throws(DBusError) -> Properties {
        guard case .dictionary("s", "v", let entries) = value else {
            throw .unexpectedSignature(expected: "a{sv}", actual: value.signature, context: context)
        }
        var result: Properties = [:]
        for entry in entries {
            guard case .string(let name) = entry.key, case .variant(let inner) = entry.value else { continue }
            result[name] = inner
        }
        return result
    }

    /// Applies `InterfacesAdded(o, a{sa{sv}})`; returns the path and the interfaces added.
    @discardableResult
    package mutating func apply(interfacesAdded signal: DBusMessage) throws(DBusError) -> (String, [String]) {
        let arguments = try signal.arguments(expecting: "oa{sa{sv}}", context: "InterfacesAdded")
        guard case .objectPath(let path) = arguments[0] else { throw .malformed("InterfacesAdded without a path") }
        let added = try Self.interfaces(arguments[1], context: "InterfacesAdded \(path)")
        for (interface, properties) in added { objects[path, default: [:]][interface] = properties }
        return (path, added.keys.sorted())
    }

    /// Applies `InterfacesRemoved(o, as)`; returns the path and the interfaces removed.
    @discardableResult
    package mutating func apply(interfacesRemoved signal: DBusMessage) throws(DBusError) -> (String, [String]) {
        let arguments = try signal.arguments(expecting: "oas", context: "InterfacesRemoved")
        guard case .objectPath(let path) = arguments[0], case .array(_, let names) = arguments[1] else {
            throw .malformed("InterfacesRemoved without a path")
        }
        var removed: [String] = []
        for case .string(let interface) in names where objects[path]?[interface] != nil {
            objects[path]?[interface] = nil
            removed.append(interface)
        }
        if objects[path]?.isEmpty == true { objects[path] = nil }
        return (path, removed)
    }

    /// Applies `PropertiesChanged(s, a{sv}, as)` from `path`; returns the interface and the changed
    /// properties (empty when the object is unknown).
    @discardableResult
    package mutating func apply(propertiesChanged signal: DBusMessage, path: String) throws(DBusError) -> (
        String, Properties
    ) {
        let arguments = try signal.arguments(expecting: "sa{sv}as", context: "PropertiesChanged on \(path)")
        guard case .string(let interface) = arguments[0] else { throw .malformed("PropertiesChanged") }
        let changed = try Self.properties(arguments[1], context: "PropertiesChanged on \(path)")
        guard objects[path]?[interface] != nil else { return (interface, [:]) }
        for (name, value) in changed { objects[path]?[interface]?[name] = value }
        if case .array(_, let invalidated) = arguments[2] {
            for case .string(let name) in invalidated { objects[path]?[interface]?[name] = nil }
        }
        return (interface, changed)
    }

    /// The properties of one interface of one object.
    package func properties(_ path: String, _ interface: String) -> Properties? { objects[path]?[interface] }

    /// The paths directly or indirectly below `path` that have `interface`, sorted.
    package func paths(under path: String, with interface: String) -> [String] {
        let prefix = path + "/"
        return objects.keys.filter { $0.hasPrefix(prefix) && objects[$0]?[interface] != nil }.sorted()
    }

    /// Replaces the whole tree (after a fresh `GetManagedObjects`).
    package mutating func replace(with other: BlueZObjectTree) { objects = other.objects }
}
