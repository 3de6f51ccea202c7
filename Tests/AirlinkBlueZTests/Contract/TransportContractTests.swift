import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkTransportContract
import Testing

/// Each of Airlink's transports as a world the transport contract runs in.
enum ContractTransport: String, CaseIterable, Sendable {
    /// The virtual radio serving the two reference peripherals.
    case virtualRadio
    /// The scripted transport the layers' tests stand on, so that it is held to what the real two do.
    case scripted
    /// The BlueZ backend on the fake BlueZ (python-dbusmock on a private bus).
    case fakeBlueZ
    /// The virtual radio serving replays of the peripherals recorded through the radio.
    case replayedFromTheRadio
    /// The virtual radio serving replays of the fake BlueZ's peripherals recorded through BlueZ, as a user records a
    /// real device.
    case replayedFromBlueZ

    /// A world in its initial state.
    func world() async throws -> any TransportContractWorld {
        switch self {
        case .virtualRadio: try VirtualRadioContractWorld()
        case .scripted: try ScriptedContractWorld()
        case .fakeBlueZ: try await BlueZContractWorld.fresh()
        case .replayedFromTheRadio:
            try VirtualRadioContractWorld(specs: try await ReplayedRecordings.throughTheRadio.value)
        case .replayedFromBlueZ: try VirtualRadioContractWorld(specs: try await ReplayedRecordings.throughBlueZ.value)
        }
    }

    /// The checks this world does not run, each with the reason.
    var notRun: [String: String] {
        switch self {
        case .virtualRadio, .scripted, .fakeBlueZ: [:]
        case .replayedFromTheRadio, .replayedFromBlueZ:
            [
                "pairsAndBonds": "a recording keeps no security requirements to pair for",
                "reportsAChangedDatabaseAndDiscoversTheNewHandles":
                    "a replay's database is the recorded one; there is no firmware update to announce",
            ]
        }
    }
}

/// One check on one transport.
struct ContractCase: Sendable, CustomTestStringConvertible {
    let transport: ContractTransport
    let check: TransportContract.Check

    var testDescription: String { "\(check.name) on \(transport.rawValue)" }

    /// Every check on every transport, but those a transport names in ``ContractTransport/notRun``.
    static let all = ContractTransport.allCases.flatMap { transport in
        TransportContract.checks.filter { transport.notRun[$0.name] == nil }.map {
            ContractCase(transport: transport, check: $0)
        }
    }
}

/// The transport contract (AirlinkTransportContract) on every transport of Airlink's, one parameterized test: the
/// same checks, the same reference peripherals. The real Linux stack runs them too, inside its VM
/// (`RealBlueZContractTests`). One at a time: the BlueZ worlds share the fake BlueZ.
@Suite(.fakeBlueZ(), .serialized)
struct TransportContractTests {
    @Test(arguments: ContractCase.all)
    func keepsTheContract(_ contractCase: ContractCase) async throws {
        try await contractCase.check.run(in: try await contractCase.transport.world())
    }

    @Test func everyCheckLeftOutNamesACheckOfTheContract() {
        let names = Set(TransportContract.checks.map(\.name))
        for transport in ContractTransport.allCases {
            #expect(Set(transport.notRun.keys).subtracting(names).isEmpty, "\(transport) leaves out no such check")
        }
        #expect(names.count == TransportContract.checks.count, "two checks share a name")
    }
}
