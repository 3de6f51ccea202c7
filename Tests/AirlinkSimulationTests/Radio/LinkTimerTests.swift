import Testing

@testable import AirlinkSimulation

@Suite struct LinkTimerTests {
    @Test(arguments: [
        LinkTimer.connectionEvent(start: .start),
        .connectionEvent(start: VirtualInstant(nanosecondsSinceStart: 2_500_000)),
        .connectionEvent(start: VirtualInstant(nanosecondsSinceStart: .max)),
        .delivery(batch: 0),
        .delivery(batch: 41),
        .delivery(batch: .max),
    ])
    func aTimerSurvivesItsTag(_ timer: LinkTimer) {
        // Given a link timer of either kind, at the edges of its range
        // When it is packed into the kernel's tag and read back
        let unpacked = LinkTimer(timer.tag)

        // Then it is the same timer: the kinds never collide
        #expect(unpacked == timer)
    }

    @Test func instantsAndSpansKeepTheirArithmetic() {
        // Given an instant 2.5 ms after the start and a 30 ms interval
        let anchor = VirtualInstant.start + .microseconds(2_500)
        let interval = VirtualDuration.milliseconds(30)

        // When the third event after the anchor is placed, and the time from it back to the anchor taken
        let third = anchor + interval * 3

        // Then the arithmetic is that of nanoseconds, and converts to Duration exactly
        #expect(third.nanosecondsSinceStart == 92_500_000)
        #expect((third - anchor) / interval == 3)
        #expect((third - anchor).duration == .milliseconds(90))
        #expect(third.airlinkInstant.offset == .microseconds(92_500))
        #expect(VirtualInstant(third.airlinkInstant) == third)
    }
}
