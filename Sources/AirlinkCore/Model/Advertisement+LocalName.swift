extension Advertisement {
    /// A device's local name and whether it is complete or shortened (CSS Part A, 1.2).
    ///
    /// A string literal makes a complete name: `localName: "Thermo"`.
    public struct LocalName: Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The name's text.
        public var name: String
        /// `true` for the Complete Local Name AD type (0x09), `false` for the Shortened Local Name (0x08).
        public var isComplete: Bool

        /// Creates a local name.
        ///
        /// - Parameters:
        ///   - name: the name's text, encoded as UTF-8.
        ///   - isComplete: whether it is the whole name or a shortened one.
        public init(_ name: String, isComplete: Bool = true) {
            self.name = name
            self.isComplete = isComplete
        }

        /// Creates a complete local name from a literal.
        public init(stringLiteral value: String) { self.init(value) }

        /// A complete local name.
        public static func complete(_ name: String) -> LocalName { LocalName(name) }

        /// A shortened local name: the first characters of a longer one.
        public static func shortened(_ name: String) -> LocalName { LocalName(name, isComplete: false) }

        /// The AD type that carries the name.
        public var adType: ADType { isComplete ? .completeLocalName : .shortenedLocalName }

        /// The name, followed by `…` when shortened.
        public var description: String { isComplete ? name : name + "…" }
    }
}
