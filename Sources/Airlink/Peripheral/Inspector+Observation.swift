import AirlinkCore
import Observation

extension Inspector {
    /// Inspects a property of an `@Observable` object: a change of the property notifies subscribers
    /// by itself (through `withObservationTracking`), and a central's write (with `.write`) sets it.
    ///
    /// ```swift
    /// @Observable final class Room: @unchecked Sendable { var temperature = 21.5 }
    /// let room = Room()
    /// try inspector.inspect("temperature", of: room, \.temperature, options: [.read, .notify])
    /// ```
    ///
    /// The change is notified on the environment's executor once the property has its new value.
    ///
    /// - Parameters:
    ///   - identifier: the name centrals use.
    ///   - object: the observable object (kept alive by the inspector).
    ///   - keyPath: the property.
    ///   - options: `.read`, `.write`, `.notify`.
    /// - Throws: what ``inspect(_:options:get:set:)`` throws.
    public func inspect<Root: Observable & AnyObject & Sendable, Value: InspectableValue>(
        _ identifier: String, of object: Root, _ keyPath: ReferenceWritableKeyPath<Root, Value> & Sendable,
        options: InspectionOptions = [.read, .notify]
    ) throws(AirlinkError) {
        let get: @Sendable () -> Value = { object[keyPath: keyPath] }
        let set: @Sendable (Value) -> Void = { object[keyPath: keyPath] = $0 }
        try inspect(identifier, options: options, get: get, set: options.contains(.write) ? set : nil)
        if options.contains(.notify) { track(identifier, of: object, keyPath) }
    }

    /// Arms one observation of the property; a change notifies subscribers, then arms the next.
    func track<Root: Observable & AnyObject & Sendable, Value: InspectableValue>(
        _ identifier: String, of object: Root, _ keyPath: KeyPath<Root, Value> & Sendable
    ) {
        withObservationTracking {
            _ = object[keyPath: keyPath]
        } onChange: { [weak self] in
            // Called before the property changes: notify from a task, once the new value is stored.
            guard let self else { return }
            _ = environment.spawn { [self] in
                do {
                    try await valueDidChange(identifier)
                } catch let error as AirlinkError {
                    environment.logger.warning("inspector \"\(name)\": \(error.message)")
                } catch {}
                track(identifier, of: object, keyPath)
            }
        }
    }
}
