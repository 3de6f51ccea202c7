import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

@Suite struct ReconnectionStrategyTests {
    private let loss = AirlinkError(.linkLost, "lost")

    private func history(_ made: Int, last: Duration? = nil) -> ReconnectionHistory {
        ReconnectionHistory(attemptsMade: made, lastDelay: last, lastError: loss)
    }

    @Test func exponentialWithoutJitterDoublesUpToTheCap() {
        // Given 1 s doubling, capped at 10 s
        let strategy = ExponentialBackoffReconnectionStrategy(
            initialDelay: .seconds(1), maximumDelay: .seconds(10), timeout: .seconds(3), jitter: .none)
        let random = SeededRandomSource(seed: 1)

        // When it plans six attempts
        let delays = (0..<6).map { strategy.nextAttempt(after: history($0), random: random)?.delay }

        // Then the waits double and stop at the cap
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
    }

    @Test func fullJitterDrawsBetweenZeroAndTheExponentialWaitReproducibly() {
        // Given full jitter, and two random sources with the same seed
        let strategy = ExponentialBackoffReconnectionStrategy(
            initialDelay: .milliseconds(500), maximumDelay: .seconds(30), attempts: 8, timeout: .seconds(3))
        let first = SeededRandomSource(seed: 42)
        let second = SeededRandomSource(seed: 42)

        // When both plan eight attempts
        let a = (0..<8).map { strategy.nextAttempt(after: history($0), random: first)!.delay! }
        let b = (0..<8).map { strategy.nextAttempt(after: history($0), random: second)!.delay! }

        // Then every wait lies within its bound, and the same seed gives the same waits
        for (n, delay) in a.enumerated() {
            #expect(delay >= .zero && delay <= strategy.exponentialDelay(n))
        }
        #expect(a == b)
        #expect(Set(a).count > 1)
        #expect(strategy.nextAttempt(after: history(8), random: first) == nil)
    }

    @Test func decorrelatedJitterStaysBetweenTheBaseAndThreeTimesThePreviousWait() {
        // Given decorrelated jitter, 1 s base, 20 s cap
        let strategy = ExponentialBackoffReconnectionStrategy(
            initialDelay: .seconds(1), maximumDelay: .seconds(20), timeout: .seconds(3), jitter: .decorrelated)
        let random = SeededRandomSource(seed: 9)

        // When it plans twenty attempts, each told the previous wait
        var previous: Duration?
        for n in 0..<20 {
            let delay = strategy.nextAttempt(after: history(n, last: previous), random: random)!.delay!
            // Then each wait is within [base, min(cap, 3 × previous)]
            let upper = min(.seconds(20), max(.seconds(1), (previous ?? .seconds(1)) * 3))
            #expect(delay >= .seconds(1) && delay <= upper)
            previous = delay
        }
    }

    @Test func linearCountsDownItsRemainingAttempts() {
        let strategy = LinearReconnectionStrategy(wait: .seconds(2), attempts: 3, timeout: .seconds(3))
        let random = SeededRandomSource(seed: 1)
        let remaining = (0..<4).map { strategy.nextAttempt(after: history($0), random: random)?.remainingAttempts }
        #expect(remaining == [3, 2, 1, nil])
    }

    @Test(arguments: [
        (
            LinearReconnectionStrategy(wait: .seconds(-1), attempts: 3, timeout: .seconds(3))
                as any ReconnectionStrategy, "wait"
        ),
        (LinearReconnectionStrategy(wait: .seconds(1), attempts: -1, timeout: .seconds(3)), "attempts"),
        (LinearReconnectionStrategy(wait: .seconds(1), attempts: 3, timeout: .zero), "timeout"),
        (
            ExponentialBackoffReconnectionStrategy(
                initialDelay: .zero, maximumDelay: .seconds(1), timeout: .seconds(1)), "initial delay"
        ),
        (
            ExponentialBackoffReconnectionStrategy(
                initialDelay: .seconds(2), maximumDelay: .seconds(1), timeout: .seconds(1)), "maximum delay"
        ),
        (
            ExponentialBackoffReconnectionStrategy(
                initialDelay: .seconds(1), multiplier: 0.5, maximumDelay: .seconds(9), timeout: .seconds(1)),
            "multiplier"
        ),
        (AdvertisementReconnectionStrategy(timeout: .seconds(3), window: .zero), "window"),
    ])
    func invalidParametersAreNamedInATypedError(strategy: any ReconnectionStrategy, parameter: String) {
        // Given a strategy with one parameter out of range
        // When it is validated
        // Then it throws invalidArgument naming that parameter
        #expect {
            try strategy.validate()
        } throws: { error in
            let error = error as? AirlinkError
            return error?.code == .invalidArgument && error?.message.contains(parameter) == true
        }
    }
}
