import AirlinkCore

extension GATTClient {
    /// One operation's turn on the link, as its body sees it.
    ///
    /// A transport bounds each of its calls by 30 s from that call, so an operation that makes one
    /// call as soon as it is issued needs no timer of its own: that is the common path (a warm cache),
    /// and it stays free of tasks. An operation that must make more (discover first, on a cold cache,
    /// or refresh the link's parameters) would get 30 s for each; it runs under its deadline as a
    /// whole instead (``OperationDeadline``, counted from when the app issued it). Its body learns
    /// which by ``bounded``, and calls ``requireDeadline(_:)`` before any transport call but its last.
    struct Turn: Sendable {
        /// The generation of the caches the operation may fill.
        let generation: Int
        /// Whether the operation runs under its deadline as a whole, so it may make several
        /// transport calls; otherwise it may make one.
        let bounded: Bool
    }

    /// Throws unless the operation runs under its deadline as a whole: ``perform(_:service:characteristic:_:)``
    /// then runs it again under its deadline, still in its turn. Call before any transport call but the
    /// operation's last, before any such call was made.
    func requireDeadline(_ turn: Turn) throws(AirlinkError) {
        if !turn.bounded { throw Self.needsDeadline }
    }

    /// Thrown by ``requireDeadline(_:)`` and caught by ``perform(_:service:characteristic:_:)``: never seen by the app.
    static let needsDeadline = AirlinkError(
        .cancelled, "the operation must make several transport calls and runs again under its deadline")
}
