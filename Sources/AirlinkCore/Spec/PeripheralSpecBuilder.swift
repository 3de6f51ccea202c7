/// One part of a ``PeripheralSpec``'s body.
public enum PeripheralComponent: Sendable {
    /// How the peripheral advertises.
    case advertising(Advertising)
    /// A service.
    case service(Service)
    /// An initial state entry.
    case state(State)
    /// Timeline entries.
    case timeline([At])
    /// A characteristic outside any service: a fault, rejected when the simulation is built.
    case characteristicWithoutService(CharacteristicSpec)
}

/// Builds the body of a ``PeripheralSpec``.
@resultBuilder
public enum PeripheralSpecBuilder {
    /// Advertising.
    public static func buildExpression(_ advertising: Advertising) -> [PeripheralComponent] {
        [.advertising(advertising)]
    }
    /// A service.
    public static func buildExpression(_ service: Service) -> [PeripheralComponent] { [.service(service)] }
    /// A state entry.
    public static func buildExpression(_ state: State) -> [PeripheralComponent] { [.state(state)] }
    /// A timeline.
    public static func buildExpression(_ timeline: Timeline) -> [PeripheralComponent] { [.timeline(timeline.entries)] }
    /// A timeline entry.
    public static func buildExpression(_ entry: At) -> [PeripheralComponent] { [.timeline([entry])] }
    /// A characteristic outside a service, kept so that validation can name the fault.
    public static func buildExpression<Value>(_ characteristic: Characteristic<Value>) -> [PeripheralComponent] {
        [.characteristicWithoutService(characteristic.spec)]
    }
    /// A component built elsewhere (a helper that returns ``PeripheralComponent``), as is.
    public static func buildExpression(_ component: PeripheralComponent) -> [PeripheralComponent] { [component] }
    /// Parts in sequence.
    public static func buildBlock(_ parts: [PeripheralComponent]...) -> [PeripheralComponent] { parts.flatMap { $0 } }
    /// An optional part.
    public static func buildOptional(_ part: [PeripheralComponent]?) -> [PeripheralComponent] { part ?? [] }
    /// One branch of a condition.
    public static func buildEither(first part: [PeripheralComponent]) -> [PeripheralComponent] { part }
    /// The other branch of a condition.
    public static func buildEither(second part: [PeripheralComponent]) -> [PeripheralComponent] { part }
    /// Parts of a loop.
    public static func buildArray(_ parts: [[PeripheralComponent]]) -> [PeripheralComponent] { parts.flatMap { $0 } }
}
