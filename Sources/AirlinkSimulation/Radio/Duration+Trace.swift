extension Duration {
    /// A short form for traces: `30ms`, `1.25ms`, `420ms`, `5s`, `2.5s`.
    var traceDescription: String {
        let nanoseconds = self.nanoseconds
        if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000)s" }
        if nanoseconds >= 1_000_000_000 { return "\(Double(nanoseconds) / 1e9)s" }
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
        if nanoseconds % 1_000 == 0 { return "\(Double(nanoseconds / 1_000) / 1_000)ms" }
        return "\(nanoseconds)ns"
    }
}
