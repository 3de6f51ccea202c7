import AirlinkCore
import Synchronization

/// A value an ``Inspector`` keeps itself: set by the app through ``Inspector/setValue(_:for:)`` and
/// by centrals' writes.
final class StoredInspectedValue: Sendable {
    private let value: Mutex<InspectedValue>

    init(_ initial: InspectedValue) { value = Mutex(initial) }

    var current: InspectedValue {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

extension Inspector {
    /// Inspects a value the inspector keeps itself, when the app has no property to point at: values
    /// typed at run time (from a command line, a scenario file), or a value only centrals change.
    ///
    /// ```swift
    /// try inspector.inspect("temperature", initialValue: .double(21.5), options: [.read, .notify])
    /// try await inspector.setValue(.double(22), for: "temperature")   // notifies subscribers
    /// ```
    ///
    /// The value keeps the type of `initialValue`: a central's write is decoded as that type (and
    /// refused if it does not decode), and ``setValue(_:for:)`` accepts only that type. With
    /// `.notify`, a value a central writes is notified to the subscribed centrals.
    ///
    /// - Parameters:
    ///   - identifier: the name centrals use, unique, 1 to 512 UTF-8 bytes.
    ///   - initialValue: the value until it is set or written.
    ///   - options: `.read`, `.write`, `.notify` (`[.read, .notify]` by default).
    /// - Throws: what ``inspect(_:options:get:set:)`` throws.
    public func inspect(
        _ identifier: String, initialValue: InspectedValue, options: InspectionOptions = [.read, .notify]
    ) throws(AirlinkError) {
        let stored = StoredInspectedValue(initialValue)
        let type = initialValue.type
        try add(
            identifier, type: type, options: options, read: { stored.current.bytes },
            write: { (bytes: [UInt8]) throws(ATTRefusal) -> InspectedValue in
                let value = try InspectedValue(decoding: bytes, as: type)
                stored.current = value
                return value
            }, stored: stored)
    }

    /// The current value of a value the inspector keeps (``inspect(_:initialValue:options:)``), or
    /// `nil` for an identifier it does not keep.
    public func value(of identifier: String) -> InspectedValue? {
        state.withLock { state in state.entries.first { $0.identifier == identifier }?.stored?.current }
    }

    /// Changes a value the inspector keeps and, if it was inspected with `.notify` and the inspector
    /// runs, notifies subscribed centrals.
    ///
    /// - Parameters:
    ///   - value: the new value, of the type the value was inspected with.
    ///   - identifier: the value's identifier.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for an identifier that is not inspected or not
    ///   kept by the inspector (values of closures and properties change at their source), a value of
    ///   another type, or a value over 512 bytes (nothing changes then); what the transport throws
    ///   while notifying.
    public func setValue(_ value: InspectedValue, for identifier: String) async throws(AirlinkError) {
        let entry = state.withLock { state in state.entries.first { $0.identifier == identifier } }
        guard let entry else {
            throw AirlinkError(.invalidArgument, "no value \"\(identifier)\" is inspected; inspect it first")
        }
        guard let stored = entry.stored else {
            throw AirlinkError(
                .invalidArgument,
                "\"\(identifier)\" is read from the app's closure or property; change it there and call valueDidChange")
        }
        guard value.type == entry.type else {
            throw AirlinkError(
                .invalidArgument, "\"\(identifier)\" is a \(entry.type); pass a \(entry.type), not a \(value.type)")
        }
        guard value.bytes.count <= 512 else {
            throw AirlinkError(
                .invalidArgument,
                "\(value.bytes.count) bytes for \"\(identifier)\", over the 512 a characteristic holds; nothing changed"
            )
        }
        stored.current = value
        if entry.options.contains(.notify) { try await valueDidChange(identifier) }
    }
}
