import Testing

@testable import AirlinkCore

@Suite struct GATTModelTests {
    @Test func propertiesUseTheDeclarationBitsAndPrintReadably() {
        // Given the properties byte 0x12 of a declaration
        let properties = CharacteristicProperties(rawValue: 0x12)

        // Then it reads as read and notify, and can subscribe
        #expect(properties == [.read, .notify])
        #expect(properties.description == "read|notify")
        #expect(properties.canSubscribe)
        #expect(CharacteristicProperties.extendedProperties.rawValue == 0x80)
        #expect(CharacteristicProperties().description == "none")
    }

    @Test func permissionsPrintTheirNames() {
        let permissions: AttributePermissions = [.readable, .writeEncryptionRequired]
        #expect(permissions.description == "readable|writeEncryptionRequired")
    }

    @Test func securityLevelsOrderFromNoneToSecureConnections() {
        #expect(LinkSecurityLevel.none < .encrypted)
        #expect(LinkSecurityLevel.encrypted.isEncrypted && !LinkSecurityLevel.encrypted.isAuthenticated)
        #expect(LinkSecurityLevel.authenticatedSecureConnections.isAuthenticated)
    }

    @Test func discoveredValuesDescribeThemselves() {
        let service = GATTService(uuid: BluetoothUUID(0x180F), handles: ATTHandle(0x10)...ATTHandle(0x14))
        let characteristic = GATTCharacteristic(
            uuid: BluetoothUUID(0x2A19), declarationHandle: ATTHandle(0x11), valueHandle: ATTHandle(0x12),
            properties: [.read, .notify])
        #expect(service.description == "service 180F 0x0010...0x0014")
        #expect(characteristic.description == "characteristic 2A19 value 0x0012 read|notify")
        #expect(
            GATTDescriptor(uuid: .clientCharacteristicConfiguration, handle: ATTHandle(0x13)).description
                == "descriptor 2902 at 0x0013")
    }
}
