@_spi(AirlinkInternals) import AirlinkCore

/// The values a characteristic notifies, as an `AsyncSequence` (``DeviceService/values(of:)``).
///
/// Values are handed over in batches: a burst of notifications wakes the consumer once. The
/// sequence ends when the device manager shuts down, when the link is lost and no reconnection
/// follows (``/AirlinkCore/ConnectionEvent/lost(_:)`` with no strategy, or
/// ``/AirlinkCore/ConnectionEvent/gaveUp(_:)``), or when the consuming task is cancelled; stop
/// iterating and drop the sequence to stop observing. One consumer per sequence.
public struct CharacteristicValues: AsyncSequence, Sendable {
    /// The values' type.
    public typealias Element = CharacteristicValue

    let channel: ValueChannel<CharacteristicValue>

    /// An iterator over the values.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: channel) }

    /// Iterates the values, a batch at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: ValueChannel<CharacteristicValue>
        private var batch: [CharacteristicValue] = []
        private var index = 0

        init(channel: ValueChannel<CharacteristicValue>) { self.channel = channel }

        /// The next value, waiting for one; `nil` once the sequence ended.
        public mutating func next() async -> CharacteristicValue? {
            await next(isolation: nil)
        }

        /// The next value, waiting for one on the caller's isolation; `nil` once the sequence ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> CharacteristicValue? {
            if index == batch.count {
                await channel.take(into: &batch, isolation: actor)
                index = 0
                if batch.isEmpty { return nil }
            }
            defer { index += 1 }
            return batch[index]
        }
    }
}
