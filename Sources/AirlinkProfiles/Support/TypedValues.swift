import Airlink
import AirlinkCore

/// The notified values of one characteristic, decoded: an `AsyncSequence` of `Element`.
///
/// Built on ``/Airlink/DeviceService/values(of:)``; a value that does not decode is skipped and counted in
/// ``skippedCount`` (a device sending a malformed value must not end the stream). The sequence ends when
/// the device manager shuts down or the consuming task is cancelled.
public struct TypedValues<Element: Sendable>: AsyncSequence, Sendable {
    let values: CharacteristicValues
    let decode: @Sendable (CharacteristicValue) throws(AirlinkError) -> Element
    let skipped: SkipCounter

    /// Wraps a characteristic's values with a decoder.
    ///
    /// - Parameters:
    ///   - values: the raw values.
    ///   - decode: turns a value into an `Element`.
    public init(
        _ values: CharacteristicValues,
        decode: @escaping @Sendable (CharacteristicValue) throws(AirlinkError) -> Element
    ) {
        self.values = values
        self.decode = decode
        self.skipped = SkipCounter()
    }

    /// How many values did not decode and were skipped so far.
    public var skippedCount: Int { skipped.count }

    /// An iterator over the decoded values.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: values.makeAsyncIterator(), decode: decode, skipped: skipped)
    }

    /// Iterates the decoded values.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: CharacteristicValues.AsyncIterator
        let decode: @Sendable (CharacteristicValue) throws(AirlinkError) -> Element
        let skipped: SkipCounter

        /// The next decoded value; `nil` once the sequence ended.
        public mutating func next() async -> Element? {
            await next(isolation: nil)
        }

        /// The next decoded value, on the caller's isolation; `nil` once the sequence ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            while let value = await base.next(isolation: actor) {
                do { return try decode(value) } catch { skipped.increment() }
            }
            return nil
        }
    }
}
