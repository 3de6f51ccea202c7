extension EventStream {
    /// The producer's end of one ``EventStream``: yield each element to it, then finish it.
    ///
    /// A source with several subscribers keeps one per subscriber; `Broadcaster` (AirlinkCore,
    /// package access) does that for Airlink's own sources.
    public final class Continuation: Sendable {
        let channel = BatchChannel<Element>()

        init() {}

        /// Hands `element` to the consumer; never waits (the buffer has no bound).
        ///
        /// - Returns: `false` once the consumer has gone (its stream was dropped or its task
        ///   cancelled): the producer may forget the continuation. After ``finish()`` the element is
        ///   dropped and the result is `true`.
        @discardableResult
        public func yield(_ element: consuming Element) -> Bool { channel.offer(element) != .terminated }

        /// Ends the stream: the consumer gets what is buffered, then the end. Later yields are dropped.
        public func finish() { channel.finish() }

        /// Whether the consumer has gone; yields are dropped from then on.
        public var isTerminated: Bool { channel.isTerminated }
    }
}
