// Swift 6.3.1: another module does not specialize the `@inlinable` methods of a `package` generic class; it calls
// them generically (metadata looked up per call), where the same methods of a `public` class are inlined and
// specialized. Airlink's workaround: BatchChannel is an SPI-public class (`@_spi(AirlinkInternals) public`) with
// `package` members, so that the layers' notification path is specialized (Sources/AirlinkCore/Support/
// BatchChannel.swift). No upstream report found. Run: bash Scripts/compiler-repros/run, which builds this module,
// then Client.swift against it, and reads Client's SIL.

/// A `package` generic class whose method is inlinable.
package final class PackageBox<Element> {
    @usableFromInline package var items: [Element] = []
    package init() {}
    @inlinable package func offer(_ value: Element) { items.append(value) }
}

/// The same class, public.
public final class PublicBox<Element> {
    @usableFromInline var items: [Element] = []
    public init() {}
    @inlinable public func offer(_ value: Element) { items.append(value) }
}
