import AirlinkCore
import Testing

@testable import AirlinkSimulation

@Suite struct ATTServerTests {
    static let secret = BluetoothUUID(0xFFF1)
    static let locked = BluetoothUUID(0xFFF2)

    /// A database with one characteristic per permission case, at values 27, 29, 31.
    static func guarded() throws -> ATTServer {
        var definition = Thermostat.definition()
        definition.services.append(
            .init(
                BluetoothUUID(0xFFF0),
                characteristics: [
                    .init(
                        secret, properties: [.read, .write],
                        permissions: [.readable, .readAuthenticationRequired, .writable, .writeEncryptionRequired],
                        value: [1]),
                    .init(locked, properties: [.read], permissions: [.readable, .readEncryptionRequired], value: [2]),
                    .init(BluetoothUUID(0xFFF3), properties: [.write], permissions: .writable, value: [3]),
                ]))
        return ATTServer(database: try AttributeDatabase(definition))
    }

    @Test(arguments: [
        (UInt16(247), UInt16(517), UInt16(247)),
        (UInt16(10), UInt16(517), UInt16(23)),
        (UInt16(517), UInt16(100), UInt16(100)),
    ])
    func mtuExchangeSettlesOnTheSmallerReceiveMTU(client: UInt16, server: UInt16, effective: UInt16) throws {
        // Given a server preferring `server`
        var att = try Thermostat.server(mtu: server)

        // When the client announces `client`
        let actions = att.handle(.exchangeMTURequest(clientMTU: client))

        // Then the server answers with its own and uses the smaller, never below 23
        #expect(actions.first == .send(.exchangeMTUResponse(serverMTU: server)))
        #expect(att.mtu == effective)
    }

    static let refusals: [(ATTPDU, LinkSecurityLevel, ATTPDU)] = [
        (.readRequest(handle: ATTHandle(31)), .none, error(.readRequest, 31, .readNotPermitted)),
        (.writeRequest(handle: ATTHandle(23), value: [1]), .none, error(.writeRequest, 23, .writeNotPermitted)),
        (.readRequest(handle: ATTHandle(27)), .encrypted, error(.readRequest, 27, .insufficientAuthentication)),
        (.readRequest(handle: ATTHandle(29)), .none, error(.readRequest, 29, .insufficientEncryption)),
        (.writeRequest(handle: ATTHandle(27), value: [1]), .none, error(.writeRequest, 27, .insufficientEncryption)),
        (
            .writeRequest(handle: ATTHandle(16), value: Array(repeating: 0, count: 513)), .none,
            error(.writeRequest, 16, .invalidAttributeValueLength)
        ),
        (.readRequest(handle: ATTHandle(0x00FF)), .none, error(.readRequest, 0xFF, .invalidHandle)),
        (
            .findInformationRequest(start: ATTHandle(32), end: .max), .none,
            error(.findInformationRequest, 32, .attributeNotFound)
        ),
        (
            .findInformationRequest(start: ATTHandle(9), end: ATTHandle(8)), .none,
            error(.findInformationRequest, 9, .invalidHandle)
        ),
        (.readBlobRequest(handle: ATTHandle(13), offset: 1), .none, error(.readBlobRequest, 13, .attributeNotLong)),
        (
            .readByGroupTypeRequest(start: .min, end: .max, type: BluetoothUUID(0x2803)), .none,
            error(.readByGroupTypeRequest, 1, .unsupportedGroupType)
        ),
    ]

    static func error(_ request: ATTOpcode, _ handle: UInt16, _ error: ATTError) -> ATTPDU {
        .errorResponse(request: request, handle: ATTHandle(handle), error: error)
    }

    @Test(arguments: refusals)
    func refusesWithTheErrorTheSpecificationNames(request: ATTPDU, security: LinkSecurityLevel, expected: ATTPDU) throws
    {
        // Given a server on a link at `security`, whose ATT_MTU is the largest (517), so that a 513-byte value
        // fits in a request and only the attribute's own limit refuses it
        var server = try Self.guarded()
        server.securityLevel = security
        _ = server.handle(.exchangeMTURequest(clientMTU: ATTServer.maximumMTU))

        // When the client sends the request
        let actions = server.handle(request.encoded)

        // Then the server answers with the expected Error Response and changes nothing
        #expect(actions == [.send(expected)])
    }

    @Test func answersOnceTheLinkIsSecureEnough() throws {
        // Given an authenticated link
        var server = try Self.guarded()
        server.securityLevel = .authenticated

        // Then the protected reads and writes go through
        #expect(server.handle(.readRequest(handle: ATTHandle(27))) == [.send(.readResponse([1]))])
        #expect(server.handle(.readRequest(handle: ATTHandle(29))) == [.send(.readResponse([2]))])
        #expect(
            server.handle(.writeRequest(handle: ATTHandle(27), value: [7]))
                == [.valueWritten(handle: ATTHandle(27), value: [7]), .send(.writeResponse)])
    }

    /// A write that needs an authenticated link is refused for want of authentication (0x05) on a link that has
    /// none, encrypted or not, never for want of encryption (0x0F): pairing with MITM protection is what cures it
    /// (Core Spec Vol 3, Part F, 4; Vol 3, Part C, 10.3.1).
    @Test(arguments: [(LinkSecurityLevel.none, false), (.encrypted, false), (.authenticated, true)])
    func aWriteNeedingAuthenticationIsRefusedForWantOfIt(level: LinkSecurityLevel, accepted: Bool) throws {
        // Given a characteristic whose writes need authentication, on a link of `level`
        var definition = Thermostat.definition()
        let guardedWrite = BluetoothUUID(0xFFF4)
        definition.services.append(
            .init(
                BluetoothUUID(0xFFF0),
                characteristics: [
                    .init(
                        guardedWrite, properties: [.read, .write],
                        permissions: [.readable, .writable, .writeAuthenticationRequired], value: [1])
                ]))
        let database = try AttributeDatabase(definition)
        let handle = try #require(database.valueHandle(of: guardedWrite))
        var server = ATTServer(database: database)
        server.securityLevel = level

        // When the client writes it
        let actions = server.handle(.writeRequest(handle: handle, value: [7]))

        // Then it is written on an authenticated link, and refused with Insufficient Authentication otherwise
        let refused = ATTPDU.errorResponse(request: .writeRequest, handle: handle, error: .insufficientAuthentication)
        #expect(
            actions
                == (accepted ? [.valueWritten(handle: handle, value: [7]), .send(.writeResponse)] : [.send(refused)]))
    }

    @Test func answersUnknownAndMalformedRequestsButIgnoresCommands() throws {
        var server = try Thermostat.server()
        // When an unknown request, a malformed request, an unknown command and a malformed command arrive
        // Then requests earn Request Not Supported and Invalid PDU on handle 0x0000, commands nothing
        #expect(server.handle([0x3F, 0x01]) == [.send(Self.error(ATTOpcode(rawValue: 0x3F), 0, .requestNotSupported))])
        #expect(server.handle([0x0A, 0x01]) == [.send(Self.error(.readRequest, 0, .invalidPDU))])
        #expect(server.handle([0x7F, 0x01]).isEmpty)
        #expect(server.handle([0x52, 0x01]).isEmpty)
    }

    @Test func writeCommandIsAppliedOrSilentlyDropped() throws {
        // Given the thermostat
        var server = try Thermostat.server()

        // When a valid command and one to a read-only value arrive
        let accepted = server.handle(.writeCommand(handle: Thermostat.targetHandle, value: [0xE8, 0x03]))
        let dropped = server.handle(.writeCommand(handle: Thermostat.temperatureHandle, value: [0]))

        // Then the first is stored and reported without response, the second vanishes
        #expect(accepted == [.valueWritten(handle: Thermostat.targetHandle, value: [0xE8, 0x03])])
        #expect(dropped.isEmpty)
        #expect(server.database[Thermostat.targetHandle]?.value == [0xE8, 0x03])
        #expect(server.database[Thermostat.temperatureHandle]?.value == [0x2C, 0x08])
    }

    @Test func readsComeFromAValueProviderWhenOneIsSet() throws {
        // Given a provider for the temperature
        var server = try Thermostat.server()
        server.setValueProvider({ _ in [0x10, 0x09] }, for: Thermostat.temperatureHandle)

        // Then reads answer with the provider's value
        #expect(
            server.handle(.readRequest(handle: Thermostat.temperatureHandle)) == [.send(.readResponse([0x10, 0x09]))])
    }

    @Test func readByTypeGroupsOnlyValuesOfTheFirstLength() throws {
        // Given the thermostat's declarations: 16-bit UUID (5 bytes), then 128-bit ones (19 bytes)
        var server = try Thermostat.server()

        // When the client reads characteristic declarations across the thermostat service
        let first = server.handle(
            .readByTypeRequest(start: ATTHandle(10), end: ATTHandle(20), type: .characteristicDeclaration))
        let second = server.handle(
            .readByTypeRequest(start: ATTHandle(13), end: ATTHandle(20), type: .characteristicDeclaration))

        // Then the first answer stops before the length changes; the next holds one 19-byte entry (MTU 23)
        #expect(
            first == [.send(.readByTypeResponse([.init(handle: ATTHandle(12), value: [0x12, 13, 0, 0x6E, 0x2A])]))])
        guard case .send(.readByTypeResponse(let entries))? = second.first else {
            Issue.record("expected a Read By Type Response, got \(second)")
            return
        }
        #expect(entries.map(\.handle) == [ATTHandle(15)])
        #expect(entries.first?.value.count == 19)
    }
}
