import AirlinkCore
import Testing

@testable import AirlinkSimulation

/// The Generic Attribute service's caching characteristics and robust caching, on one connection's ATT server
/// (Core Spec Vol 3, Part G, 2.5.2.1, 7.2, 7.3).
@Suite struct RobustCachingServerTests {
    /// The thermostat's definition with the whole Generic Attribute service: Service Changed 0x0008 (CCCD
    /// 0x0009), Client Supported Features 0x000B, Database Hash 0x000D; the temperature's value at 0x0011.
    static func definition() -> GATTServerDefinition {
        var definition = Thermostat.definition()
        definition.genericAttribute = .all
        return definition
    }

    static let serviceChanged = ATTHandle(0x0008)
    static let serviceChangedCCCD = ATTHandle(0x0009)
    static let features = ATTHandle(0x000B)
    static let hash = ATTHandle(0x000D)
    static let temperature = ATTHandle(0x0011)

    static func server() throws -> ATTServer {
        ATTServer(database: try AttributeDatabase(definition()), preferredMTU: 517)
    }

    /// The same database with a service more at the end: the structure changed after every existing handle.
    static func updated() throws -> AttributeDatabase {
        var definition = definition()
        definition.services.append(
            .init(BluetoothUUID(0x181A), characteristics: [.init(BluetoothUUID(0x2A6F), properties: .read, value: [1])])
        )
        return try AttributeDatabase(definition)
    }

    /// A server whose client enabled robust caching and then missed a change (no Service Changed).
    static func changeUnawareServer() throws -> ATTServer {
        var server = try server()
        _ = server.handle(.writeRequest(handle: features, value: [0x01]))
        _ = server.replaceDatabase(with: try updated(), announce: false)
        return server
    }

    @Test func theHashCharacteristicServesTheTablesOwnHashLeastSignificantOctetFirst() throws {
        // Given the thermostat with the whole Generic Attribute service
        var server = try Self.server()
        let database = server.database

        // When a client reads the Database Hash by handle and by type
        let byHandle = server.handle(.readRequest(handle: Self.hash))
        let byType = server.handle(.readByTypeRequest(start: ATTHandle(1), end: ATTHandle(0xFFFF), type: .databaseHash))

        // Then both give the hash of the table, characteristic values left out, least significant octet first
        let expected = database.databaseHash.bytes.reversed() as [UInt8]
        #expect(byHandle == [.send(.readResponse(expected))])
        #expect(byType == [.send(.readByTypeResponse([.init(handle: Self.hash, value: expected)]))])
        #expect(try GATTDatabaseHash(characteristicValue: expected) == database.databaseHash)
        #expect(database.databaseHashHandle == Self.hash && database.clientSupportedFeaturesHandle == Self.features)
    }

    @Test func clientSupportedFeaturesAreTheClientsOwnAndBitsCannotBeCleared() throws {
        // Given a client's connection and another's
        var server = try Self.server()
        var other = try Self.server()

        // When the client enables robust caching, then tries to clear it, then sets every bit
        let enable = server.handle(.writeRequest(handle: Self.features, value: [0x01]))
        let clear = server.handle(.writeRequest(handle: Self.features, value: [0x00]))
        let all = server.handle(.writeRequest(handle: Self.features, value: [0xFF]))
        let long = server.handle(.writeRequest(handle: Self.features, value: [0x07, 0x00]))

        // Then setting is accepted, clearing is Value Not Allowed (Vol 3, Part G, 7.2), only known bits are kept,
        // a longer value is refused, and the other client reads its own zero
        #expect(enable == [.send(.writeResponse)])
        #expect(
            clear == [.send(.errorResponse(request: .writeRequest, handle: Self.features, error: .valueNotAllowed))])
        #expect(all == [.send(.writeResponse)])
        #expect(
            long == [
                .send(
                    .errorResponse(request: .writeRequest, handle: Self.features, error: .invalidAttributeValueLength))
            ])
        #expect(server.handle(.readRequest(handle: Self.features)) == [.send(.readResponse([0x07]))])
        #expect(other.handle(.readRequest(handle: Self.features)) == [.send(.readResponse([0x00]))])
        #expect(server.clientState.hasRobustCaching && !other.clientState.hasRobustCaching)
    }

    @Test func aChangeUnawareClientGetsOutOfSyncOnceThenIsServed() throws {
        // Given a client with robust caching that missed a database change
        var server = try Self.changeUnawareServer()
        #expect(!server.clientState.isChangeAware)

        // When it writes without response, then reads twice
        let command = server.handle(.writeCommand(handle: Self.temperature, value: [9, 9]))
        let first = server.handle(.readRequest(handle: Self.temperature))
        let second = server.handle(.readRequest(handle: Self.temperature))

        // Then the command is ignored, the first read is answered Database Out Of Sync, and the second is served
        // with the client change-aware again (Vol 3, Part G, 2.5.2.1)
        #expect(command.isEmpty)
        #expect(
            first == [
                .send(.errorResponse(request: .readRequest, handle: Self.temperature, error: .databaseOutOfSync))
            ])
        #expect(second == [.send(.readResponse([0x2C, 0x08]))])
        #expect(server.clientState.isChangeAware)
    }

    @Test func readingTheHashByTypeIsServedAndTheNextRequestToo() throws {
        // Given a change-unaware client with robust caching
        var server = try Self.changeUnawareServer()

        // When it reads the Database Hash by type, then the temperature
        let hash = server.handle(.readByTypeRequest(start: ATTHandle(1), end: ATTHandle(0xFFFF), type: .databaseHash))
        let read = server.handle(.readRequest(handle: Self.temperature))

        // Then both are served: the hash read is the exception, and the request after it makes the client aware
        let expected = server.database.databaseHash.characteristicValue
        #expect(hash == [.send(.readByTypeResponse([.init(handle: Self.hash, value: expected)]))])
        #expect(read == [.send(.readResponse([0x2C, 0x08]))])
        #expect(server.clientState.isChangeAware)
    }

    @Test func confirmingServiceChangedMakesTheClientChangeAware() throws {
        // Given a client with robust caching subscribed to Service Changed
        var server = try Self.server()
        _ = server.handle(.writeRequest(handle: Self.features, value: [0x01]))
        _ = server.handle(.writeRequest(handle: Self.serviceChangedCCCD, value: [0x02, 0x00]))

        // When the database changes and the client confirms the indication
        let (indication, changed) = server.replaceDatabase(with: try Self.updated())
        #expect(!server.clientState.isChangeAware)
        #expect(server.clientState.unconfirmedServiceChange == changed)
        let confirmation = server.handle(.handleValueConfirmation)

        // Then the range was indicated and, once confirmed, the next read is served at once
        let range = try #require(changed)
        #expect(
            indication == [
                .send(
                    .handleValueIndication(
                        handle: Self.serviceChanged,
                        value: [
                            UInt8(range.lowerBound.rawValue & 0xFF), UInt8(range.lowerBound.rawValue >> 8),
                            UInt8(range.upperBound.rawValue & 0xFF), UInt8(range.upperBound.rawValue >> 8),
                        ]))
            ])
        #expect(confirmation == [.indicationConfirmed(handle: Self.serviceChanged)])
        #expect(server.clientState.isChangeAware && server.clientState.unconfirmedServiceChange == nil)
        #expect(server.handle(.readRequest(handle: Self.temperature)) == [.send(.readResponse([0x2C, 0x08]))])
    }

    @Test func aBondedClientsUnconfirmedChangeIsIndicatedAgainOnItsNextConnection() throws {
        // Given a bonded client subscribed to Service Changed whose link dropped before it confirmed a change
        var server = try Self.server()
        _ = server.handle(.writeRequest(handle: Self.serviceChangedCCCD, value: [0x02, 0x00]))
        let (first, changed) = server.replaceDatabase(with: try Self.updated())
        let kept = (server.clientState, server.clientConfigurations)

        // When it connects again and the server takes back what it kept
        var next = ATTServer(database: try Self.updated(), preferredMTU: 517)
        next.restoreClient(kept.0, clientConfigurations: kept.1)
        let again = next.indicateUnconfirmedServiceChange()

        // Then the same range is indicated again, and nothing is for a client that confirmed
        #expect(changed != nil && changed == kept.0.unconfirmedServiceChange)
        #expect(again == first)
        _ = next.handle(.handleValueConfirmation)
        var later = ATTServer(database: try Self.updated(), preferredMTU: 517)
        later.restoreClient(next.clientState, clientConfigurations: next.clientConfigurations)
        #expect(later.indicateUnconfirmedServiceChange().isEmpty)
    }

    @Test func withoutRobustCachingNothingIsRefused() throws {
        // Given a client that never wrote Client Supported Features, after a silent change
        var server = try Self.server()
        _ = server.replaceDatabase(with: try Self.updated(), announce: false)

        // When it reads
        // Then it is served: Database Out Of Sync is for clients that enabled robust caching
        #expect(server.handle(.readRequest(handle: Self.temperature)) == [.send(.readResponse([0x2C, 0x08]))])
    }

    @Test func aSecondChangeBeforeCatchingUpEarnsOutOfSyncAgain() throws {
        // Given a change-unaware client that was told Database Out Of Sync
        var server = try Self.changeUnawareServer()
        _ = server.handle(.readRequest(handle: Self.temperature))

        // When the database changes again before its next request
        _ = server.replaceDatabase(with: try AttributeDatabase(Self.definition()), announce: false)
        let read = server.handle(.readRequest(handle: Self.temperature))

        // Then it is told again (Vol 3, Part G, 2.5.2.1)
        #expect(
            read == [.send(.errorResponse(request: .readRequest, handle: Self.temperature, error: .databaseOutOfSync))])
    }

    @Test func aChangeUnawareClientGetsNoNotificationsUntilItCatchesUp() throws {
        // Given a client with robust caching subscribed to the temperature (CCCD 0x0012), then a silent change
        // after it (a service added at the end)
        var server = try Self.server()
        _ = server.handle(.writeRequest(handle: Self.features, value: [0x01]))
        _ = server.handle(.writeRequest(handle: ATTHandle(0x0012), value: [0x01, 0x00]))
        _ = server.replaceDatabase(with: try Self.updated(), announce: false)

        // When the temperature is notified before and after the client catches up
        let held = try server.notify([1, 2], for: Self.temperature)
        _ = server.handle(.readRequest(handle: Self.temperature))
        _ = server.handle(.readRequest(handle: Self.temperature))
        let sent = try server.notify([3, 4], for: Self.temperature)

        // Then the first is held back and the second goes out
        #expect(held.isEmpty)
        #expect(sent == [.send(.handleValueNotification(handle: Self.temperature, value: [3, 4]))])
    }

    @Test func theMTUExchangeAndConfirmationsPassTheGate() throws {
        // Given a change-unaware client with robust caching
        var server = try Self.changeUnawareServer()

        // When it exchanges MTUs
        let exchange = server.handle(.exchangeMTURequest(clientMTU: 247))

        // Then it is answered, and the client is still change-unaware
        #expect(exchange.first == .send(.exchangeMTUResponse(serverMTU: 517)))
        #expect(!server.clientState.isChangeAware)
    }
}
