import AirlinkCore
import Testing

/// A firmware's state reads a value back with the type it was stored with (in one comparison of
/// types), and with any other type the way `as?` would.
@Suite struct PeripheralStateTests {
    class Base: @unchecked Sendable {}
    final class Derived: Base, @unchecked Sendable {}

    @Test func aValueReadsBackWithItsOwnTypeAndNotWithAnother() {
        // Given a state holding a Double and an Int
        let state = PeripheralState(["temperature": 21.5, "count": 3])

        // Then each reads back with its own type, and another type gets the default or nil
        #expect(state["temperature", default: 0.0] == 21.5)
        #expect(state["count", default: 0] == 3)
        #expect(state["count", default: 0.0] == 0.0)
        #expect(state["temperature", as: Int.self] == nil)
        #expect(state["missing", default: "none"] == "none")
    }

    @Test func aValueReadsBackAsATypeItCastsTo() {
        // Given a state holding a subclass instance and an optional-free existential
        let derived = Derived()
        let state = PeripheralState(["object": derived, "number": 7 as any Sendable])

        // Then it reads back as its superclass and as an existential, as `as?` would
        #expect(state["object", as: Base.self] === derived)
        #expect(state["object", as: Derived.self] === derived)
        #expect((state["number", as: (any Sendable).self]) as? Int == 7)
    }
}
