import AirlinkCore
import AirlinkSimulation
import Testing

/// An attribute that needs a minimum key size is refused over an unencrypted link with Insufficient
/// Encryption, and over a link encrypted with a shorter key with Insufficient Encryption Key Size (Core Spec
/// Vol 3, Part F, 3.4.1.1; Vol 3, Part G, 8.1).
@Suite struct ATTServerKeySizeTests {
    private static func server() throws -> ATTServer {
        let definition = GATTServerDefinition(
            deviceName: "Vault",
            services: [
                .init(
                    BluetoothUUID(0xFFF0),
                    characteristics: [
                        .init(
                            BluetoothUUID(0xFFF1), properties: [.read, .write],
                            permissions: try [.readable, .writable, .minimumKeySize(16)], value: [1])
                    ])
            ])
        return ATTServer(database: try AttributeDatabase(definition))
    }

    @Test(arguments: [
        (LinkSecurityLevel.none, 16, ATTError.insufficientEncryption),
        (LinkSecurityLevel.encrypted, 7, ATTError.insufficientEncryptionKeySize),
        (LinkSecurityLevel.authenticated, 15, ATTError.insufficientEncryptionKeySize),
    ])
    func aShortOrAbsentKeyIsRefused(_ level: LinkSecurityLevel, _ keySize: Int, _ expected: ATTError) throws {
        // Given a server on a link at `level` with a `keySize`-byte key
        var server = try Self.server()
        server.securityLevel = level
        server.encryptionKeySize = keySize
        let handle = try #require(
            server.database.attributes.first { $0.permissions.minimumKeySize == 16 }?.handle)

        // When the client reads and writes the value
        let read = server.handle(.readRequest(handle: handle))
        let write = server.handle(.writeRequest(handle: handle, value: [2]))

        // Then both are refused with the expected error
        #expect(read == [.send(.errorResponse(request: .readRequest, handle: handle, error: expected))])
        #expect(write == [.send(.errorResponse(request: .writeRequest, handle: handle, error: expected))])
    }

    @Test func a16ByteKeyOpensIt() throws {
        // Given an encrypted link with a 16-byte key
        var server = try Self.server()
        server.securityLevel = .encrypted
        let handle = try #require(
            server.database.attributes.first { $0.permissions.minimumKeySize == 16 }?.handle)

        // Then the value is read
        #expect(server.handle(.readRequest(handle: handle)) == [.send(.readResponse([1]))])
    }

    @Test(arguments: [0, 6, 17, -1])
    func aKeySizeOutside7To16IsATypedError(_ bytes: Int) {
        #expect(throws: AirlinkError.self) { try AttributePermissions.minimumKeySize(bytes) }
    }

    @Test func twoMergedKeySizesAreRefusedByValidation() throws {
        // Given a characteristic whose permissions carry two key sizes at once
        let permissions = try AttributePermissions.minimumKeySize(7).union(try .minimumKeySize(16))
        var spec = PeripheralSpec(name: "Vault", id: "C0:FF:EE:00:00:31") {}
        var service = Service(BluetoothUUID(0xFFF0))
        service.characteristics.append(
            Characteristic(BluetoothUUID(0xFFF1), properties: .read, permissions: permissions, value: UInt8(1)).spec)
        spec.services = [service]

        // Then validation refuses it, naming the characteristic
        #expect {
            try spec.validate()
        } throws: { error in
            (error as? AirlinkError)?.message.contains("two minimum key sizes") == true
        }
    }
}
