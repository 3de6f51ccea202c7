import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// A peripheral's Security Request (SMP 0x0B) on the virtual radio: sent one connection interval after each link's
/// setup when its spec asks for it, never otherwise, not on a link that went down or started pairing meanwhile.
@Suite struct RadioSecurityRequestTests {
    static let id = RadioPairingTests.id
    static let request = SecurityRequest(bonding: true, mitm: true, secureConnections: true)

    /// What one run observed: the transport's `securityRequested` events with their virtual times, and the trace's
    /// pairing steps.
    struct Observed {
        var requests: [(at: Duration, request: SecurityRequest)] = []
        var connectedAt: [Duration] = []
        var steps: [PairingStep] = []
    }

    /// Runs `body` on a radio next to the vault (requesting security if `requesting`), recording the radio's events.
    static func observe(
        requesting: Bool, _ body: @escaping @Sendable (VirtualRadio, Simulation) async throws -> Void
    ) async throws -> Observed {
        let sim = Simulation(seed: 11, strict: true)
        let spec = RadioPairingTests.vault(RadioPairingTests.keyboard)
        _ = try sim.add(requesting ? spec.requestingSecurity(request) : spec)
        let radio = sim.radio
        let stamped = Recorder<(Duration, TransportEvent)>()
        let stream = radio.events()
        sim.spawn {
            for await event in stream { stamped.append((sim.now.offset, event)) }
        }
        try await sim.run { try await body(radio, sim) }
        var observed = Observed(steps: sim.trace.records.pairingSteps.map(\.step))
        for (time, event) in stamped.values {
            switch event {
            case .securityRequested(let device, let request) where device == id:
                observed.requests.append((time, request))
            case .connected(let device) where device == id: observed.connectedAt.append(time)
            default: break
            }
        }
        return observed
    }

    @Test func aRequestingPeripheralAsksOneIntervalAfterEachLinksSetup() async throws {
        // Given a peripheral that asks for an authenticated, bonded Secure Connections link
        let ready = Recorder<Duration>()
        let observed = try await Self.observe(requesting: true) { radio, sim in
            // When the central connects, waits, disconnects, and connects again
            let first = try await radio.connect(Self.id, timeout: .seconds(5))
            ready.append(sim.now.offset)
            try await sim.clock.sleep(for: .seconds(1))
            await radio.disconnect(Self.id)
            _ = try await radio.connect(Self.id, timeout: .seconds(5))
            ready.append(sim.now.offset)
            try await sim.clock.sleep(for: .seconds(1))
            #expect(first.connectionInterval == .milliseconds(30))
        }
        // Then each link brings one request with what the spec asks, one connection interval (30 ms) after its setup
        // (the link is ready when connect returns), traced on the smp layer
        #expect(observed.requests.map(\.request) == [Self.request, Self.request])
        #expect(observed.connectedAt.count == 2)
        #expect(ready.values.count == 2)
        for (request, ready) in zip(observed.requests, ready.values) {
            #expect(request.at - ready == .milliseconds(30))
        }
        let traced = observed.steps.filter { $0 == .securityRequest(Self.request) }
        #expect(traced.count == 2, "\(observed.steps)")
        #expect(traced.allSatisfy { $0.text == "< SMP_SECURITY_REQUEST bonding mitm sc" })
    }

    @Test func aPeripheralThatDoesNotAskSendsNothing() async throws {
        // Given the same peripheral without a request
        let observed = try await Self.observe(requesting: false) { radio, sim in
            // When the central connects and stays a while
            _ = try await radio.connect(Self.id, timeout: .seconds(5))
            try await sim.clock.sleep(for: .seconds(2))
        }
        // Then no request comes and nothing is traced on the smp layer
        #expect(observed.connectedAt.count == 1)
        #expect(observed.requests.isEmpty)
        #expect(observed.steps.isEmpty, "\(observed.steps)")
    }

    @Test func aLinkThatWentDownBeforeTheIntervalGetsNoRequest() async throws {
        // Given a requesting peripheral
        let observed = try await Self.observe(requesting: true) { radio, sim in
            // When the central disconnects as soon as the link is up
            _ = try await radio.connect(Self.id, timeout: .seconds(5))
            await radio.disconnect(Self.id)
            try await sim.clock.sleep(for: .seconds(1))
        }
        // Then the request scheduled for that link is never sent
        #expect(observed.connectedAt.count == 1)
        #expect(observed.requests.isEmpty)
        #expect(!observed.steps.contains { if case .securityRequest = $0 { true } else { false } }, "\(observed.steps)")
    }

    @Test func aCentralThatPairsFirstGetsNoRequest() async throws {
        // Given a requesting peripheral
        let observed = try await Self.observe(requesting: true) { radio, sim in
            // When the central starts pairing as soon as the link is up (typing the passkey the peripheral shows)
            _ = try await radio.connect(Self.id, timeout: .seconds(5))
            _ = try await radio.pair(Self.id, features: PairingFeatures(io: .keyboardOnly, mitm: true))
            try await sim.clock.sleep(for: .seconds(1))
        }
        // Then pairing goes ahead and the peripheral does not ask for what is already under way
        #expect(observed.requests.isEmpty)
        #expect(observed.steps.contains(.bonded), "\(observed.steps)")
        #expect(!observed.steps.contains { if case .securityRequest = $0 { true } else { false } }, "\(observed.steps)")
    }
}
