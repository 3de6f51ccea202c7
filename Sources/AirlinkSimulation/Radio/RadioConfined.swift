/// A model of the virtual radio whose mutable state is used only under its world's lock (``RadioWorld/lock``):
/// ``Link``, ``RadioPeripheral``, ``RadioWorld``, ``VirtualRadio``, ``VirtualPeripheralRole``, ``ConnectAttempt``.
///
/// They skip Swift's checks for speed (`@unchecked Sendable`, `@exclusivity(unchecked)`); their entry points
/// call ``assertConfined(_:file:line:)`` so that debug builds stop where the promise breaks.
protocol RadioConfined: AnyObject {
    /// The world whose lock guards it.
    var world: RadioWorld { get }
}

extension RadioConfined {
    /// In debug builds, stops the process unless the calling thread holds the world's lock
    /// (``RadioLock/assertHeld(_:file:line:)``); in release builds, does nothing (not even read ``world``).
    ///
    /// - Parameter member: what was touched, for the message (by default the calling member).
    @inline(__always)
    func assertConfined(_ member: StaticString = #function, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            world.lock.assertHeld("\(Self.self).\(member)", file: file, line: line)
        #endif
    }
}
