@_spi(AirlinkInternals) import AirlinkCore

/// The bounded batch channel of the layers' notification lanes (``BatchChannel``).
typealias ValueChannel<Element: Sendable> = BatchChannel<Element>
