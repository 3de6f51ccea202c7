extension DecodingError {
    /// A `dataCorrupted` error at entry `index` of `list`: the entry just decoded. `dataCorruptedError(in:)` would
    /// name the next one, the container's index having moved past the entry once it was decoded.
    ///
    /// - Parameters:
    ///   - index: the entry's index, `list.currentIndex` before decoding it.
    ///   - list: the list.
    ///   - description: what is wrong.
    static func corruptedEntry(_ index: Int, of list: any UnkeyedDecodingContainer, _ description: String)
        -> DecodingError
    {
        .dataCorrupted(
            .init(codingPath: list.codingPath + [ScenarioPathKey(intValue: index)], debugDescription: description))
    }
}
