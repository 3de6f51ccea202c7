/// The mutable state of one simulated peripheral's firmware, beside its GATT values.
///
/// A spec declares the initial entries with ``State``; behaviours read and change them through
/// ``PeripheralContext/state``. Keys are strings; values are any `Sendable` type and are read back
/// with the type they were stored with.
///
/// ```swift
/// context.state["setPoint", default: 21.0] += 0.5
/// ```
public struct PeripheralState: Sendable {
    @usableFromInline var storage: [String: any Sendable]

    /// Creates a state with the given entries.
    public init(_ entries: [String: any Sendable] = [:]) { storage = entries }

    /// The value stored under `key` as `Value`, or `defaultValue` when there is none (or it has another type).
    @inlinable
    public subscript<Value: Sendable>(key: String, default defaultValue: @autoclosure () -> Value) -> Value {
        get { Self.cast(storage[key], to: Value.self) ?? defaultValue() }
        set { storage[key] = newValue }
    }

    /// The value stored under `key` as `Value`, or `nil`; setting `nil` removes it.
    @inlinable
    public subscript<Value: Sendable>(key: String, as type: Value.Type) -> Value? {
        get { Self.cast(storage[key], to: Value.self) }
        set { storage[key] = newValue }
    }

    /// `stored as? Value`, without the runtime's general cast when the value is exactly a `Value` (the
    /// common case: state is read back with the type it was stored with). A cast from an existential
    /// costs hundreds of instructions, a tenth of a simulated firmware's read handler
    /// (Docs/Performance.md); comparing the two types costs one comparison.
    @inlinable
    static func cast<Value>(_ stored: (any Sendable)?, to type: Value.Type) -> Value? {
        guard let stored else { return nil }
        func exact<Stored: Sendable>(_ value: Stored) -> Value? {
            Stored.self == Value.self ? unsafeBitCast(value, to: Value.self) : value as? Value
        }
        return exact(stored)
    }

    /// The value stored under `key`, untyped; setting `nil` removes it.
    @inlinable
    public subscript(key: String) -> (any Sendable)? {
        get { storage[key] }
        set { storage[key] = newValue }
    }

    /// The keys, sorted (so that iterating them never depends on hash order).
    public var keys: [String] { storage.keys.sorted() }

    /// Adds or replaces the entries of `other`.
    public mutating func merge(_ other: PeripheralState) {
        for (key, value) in other.storage { storage[key] = value }
    }
}

/// An initial entry of a peripheral's ``PeripheralState``, as a component of a ``PeripheralSpec``.
public struct State: Sendable {
    /// The key a peripheral's behaviour reads and writes the entry under.
    public var key: String
    /// The value the entry holds when the peripheral starts, or after a reset.
    public var value: any Sendable

    /// Declares a state entry.
    ///
    /// - Parameters:
    ///   - key: the key behaviours use.
    ///   - value: the value the firmware starts with (and returns to on reset).
    public init(_ key: String, _ value: some Sendable) {
        self.key = key
        self.value = value
    }
}
