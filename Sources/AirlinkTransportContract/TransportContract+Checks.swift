import AirlinkCore

extension TransportContract {
    /// One check of the contract, by name: what a parameterized test runs in a world.
    public struct Check: Sendable, CustomStringConvertible {
        /// The check's name, as the function is named (`readsValues`).
        public let name: String
        let body: @Sendable (any TransportContractWorld) async throws -> Void

        /// Runs the check in `world`; its expectations are recorded in the running Swift Testing test.
        ///
        /// - Throws: what the check's steps throw (an `AirlinkError` the transport gave where the contract wants
        ///   success, or a failed requirement).
        public func run(in world: some TransportContractWorld) async throws { try await body(world) }

        /// The check's name.
        public var description: String { name }
    }

    /// Every check of the contract, in the order a transport's author meets them: scanning, connecting, values,
    /// notifications, caching, links ending, errors, deadlines, security, closing.
    public static let checks: [Check] = [
        Check(name: "discoversWithFilters") { try await discoversWithFilters($0) },
        Check(name: "connectsAndDiscovers") { try await connectsAndDiscovers($0) },
        Check(name: "readsValues") { try await readsValues($0) },
        Check(name: "writesValues") { try await writesValues($0) },
        Check(name: "deliversNotifications") { try await deliversNotifications($0) },
        Check(name: "reconnectsWithUnchangedDatabaseOnTheSameHandles") {
            try await reconnectsWithUnchangedDatabaseOnTheSameHandles($0)
        },
        Check(name: "reportsAChangedDatabaseAndDiscoversTheNewHandles") {
            try await reportsAChangedDatabaseAndDiscoversTheNewHandles($0)
        },
        Check(name: "disconnects") { try await disconnects($0) },
        Check(name: "reportsConnectionLoss") { try await reportsConnectionLoss($0) },
        Check(name: "mapsATTErrors") { try await mapsATTErrors($0) },
        Check(name: "refusesOperationsWithoutLink") { try await refusesOperationsWithoutLink($0) },
        Check(name: "timesOutUnansweredRequests") { try await timesOutUnansweredRequests($0) },
        Check(name: "pairsAndBonds") { try await pairsAndBonds($0) },
        Check(name: "endsStreamsWhenClosed") { try await endsStreamsWhenClosed($0) },
    ]
}
