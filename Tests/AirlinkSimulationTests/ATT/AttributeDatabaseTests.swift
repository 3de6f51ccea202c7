import AirlinkCore
import Testing

@testable import AirlinkSimulation

@Suite struct AttributeDatabaseTests {
    @Test func laysOutGenericServicesFirstThenTheDefinition() throws {
        // Given the thermostat definition
        // When the database is built
        let database = try Thermostat.database()

        // Then Generic Access and Generic Attribute come first, with Service Changed and its CCCD
        #expect(
            database.attributes.prefix(9).map(\.type.uint16) == [
                0x2800, 0x2803, 0x2A00, 0x2803, 0x2A01, 0x2800, 0x2803, 0x2A05, 0x2902,
            ])
        #expect(database[ATTHandle(3)]?.value == Array("Thermostat".utf8))
        #expect(database[ATTHandle(5)]?.value == [0x00, 0x03])
        #expect(database.serviceChangedHandle == ATTHandle(8))
        #expect(database[ATTHandle(7)]?.value == [0x20, 0x08, 0x00, 0x05, 0x2A])

        // And the thermostat includes the battery service, declares its characteristics and gets CCCDs
        #expect(database[ATTHandle(11)]?.value == [21, 0, 24, 0, 0x0F, 0x18])
        #expect(database[ATTHandle(12)]?.value == [0x12, 13, 0, 0x6E, 0x2A])
        #expect(database[ATTHandle(14)]?.type == .clientCharacteristicConfiguration)
        #expect(database[ATTHandle(17)]?.value == Array("Target".utf8))
        #expect(database.cccdHandle(forValue: Thermostat.modeHandle) == ATTHandle(20))
        #expect(database.cccdHandle(forValue: Thermostat.targetHandle) == nil)
        #expect(database.lastHandle == ATTHandle(24))
        #expect(
            database.services.map(\.description) == [
                "service 1800 0x0001...0x0005", "service 1801 0x0006...0x0009",
                "service 6E400001-B5A3-F393-E0A9-E50E24DCCA9E 0x000A...0x0014", "service 180F 0x0015...0x0018",
            ])
        #expect(database.services[2].includedServiceHandles == [ATTHandle(21)])
    }

    static let faults: [(GATTServerDefinition.Characteristic, String)] = [
        (.init(BluetoothUUID(0x2A19), properties: .read, value: Array(repeating: 0, count: 513)), "513-byte value"),
        (
            .init(
                BluetoothUUID(0x2A19), properties: [.read, .notify],
                descriptors: [.init(.clientCharacteristicConfiguration)]),
            "a duplicate of the one the database adds"
        ),
        (
            .init(BluetoothUUID(0x2A19), properties: .read, descriptors: [.init(.clientCharacteristicConfiguration)]),
            "allow neither notify nor indicate"
        ),
        (.init(BluetoothUUID(0x2A19), properties: [.read, .extendedProperties]), "no Extended Properties descriptor"),
        (
            .init(BluetoothUUID(0x2A19), properties: .read, descriptors: [.init(.characteristicDeclaration)]),
            "descriptor of declaration type"
        ),
    ]

    @Test(arguments: faults)
    func rejectsCharacteristicFaultsNamingThem(characteristic: GATTServerDefinition.Characteristic, fault: String) {
        // Given a battery service with one faulty characteristic
        let definition = GATTServerDefinition(
            deviceName: "Bad", services: [.init(BluetoothUUID(0x180F), characteristics: [characteristic])])

        // Then building it fails with invalidSpecification, naming the fault and the characteristic
        #expect {
            try AttributeDatabase(definition)
        } throws: { error in
            let error = error as? AirlinkError
            return error?.code == .invalidSpecification && error?.message.contains(fault) == true
                && error?.message.contains("characteristic 2A19") == true
        }
    }

    @Test func rejectsRedefinedGenericServicesAndUnknownIncludes() {
        let generic = GATTServerDefinition(deviceName: "X", services: [.init(.genericAccess, characteristics: [])])
        let include = GATTServerDefinition(
            deviceName: "X",
            services: [.init(BluetoothUUID(0x180F), includes: [BluetoothUUID(0x180A)], characteristics: [])])
        #expect(throws: AirlinkError.self) { try AttributeDatabase(generic) }
        #expect {
            try AttributeDatabase(include)
        } throws: {
            ($0 as? AirlinkError)?.message.contains("includes 180A, which the definition does not define") == true
        }
    }

    @Test func rejectsMoreThan0xFFFFHandles() {
        // Given 22,000 characteristics of three handles each
        let characteristic = GATTServerDefinition.Characteristic(BluetoothUUID(0x2A19), properties: .notify)
        let definition = GATTServerDefinition(
            deviceName: "Huge",
            services: [.init(BluetoothUUID(0x180F), characteristics: Array(repeating: characteristic, count: 22_000))])

        // Then the database refuses it
        #expect {
            try AttributeDatabase(definition)
        } throws: { ($0 as? AirlinkError)?.message.contains("more than 0xFFFF attribute handles") == true }
    }

    @Test func changeReportsTheAffectedServiceRange() throws {
        // Given the thermostat, and a firmware update adding a characteristic to the battery service
        let old = try Thermostat.database()
        let new = try AttributeDatabase(
            Thermostat.definition(batteryExtras: [.init(BluetoothUUID(0x2A1A), properties: .read, value: [1])]))

        // When the two are compared
        let changed = new.changedHandles(comparedWith: old)

        // Then the range covers the battery service to its new end, and the thermostat service too,
        // whose include declaration now carries the battery's new end handle
        #expect(changed == ATTHandle(10)...ATTHandle(26))
        #expect(old.changedHandles(comparedWith: old) == nil)
    }
}
