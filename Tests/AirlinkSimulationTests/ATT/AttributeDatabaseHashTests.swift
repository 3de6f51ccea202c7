import AirlinkCore
import Testing

@testable import AirlinkSimulation

/// The virtual radio's attribute table hashed as the Database Hash characteristic will serve it (Vol 3, Part G, 7.3).
@Suite struct AttributeDatabaseHashTests {
    @Test func genericServicesAloneHashTheirDeclarations() throws {
        // Given a peripheral with no services of its own: Generic Access and Generic Attribute (Service Changed only)
        let database = try AttributeDatabase(
            GATTServerDefinition(deviceName: "Bare", services: [], genericAttribute: .serviceChanged))

        // When its table is hashed
        let hash = database.databaseHash

        // Then the hash covers the two service declarations, the three characteristic declarations and the CCCD
        // (device name, appearance and Service Changed values left out), under AES-CMAC with the zero key
        #expect(hash.description == "7C3F23502BD8432AC1F1246426949C50")
    }

    @Test func writesLeaveTheHashAndLayoutChangesMoveIt() throws {
        // Given the thermostat's table and its hash
        var database = try Thermostat.database()
        let before = database.databaseHash

        // When a client writes the target temperature and subscribes to the mode, and the target's user
        // description (0x0011) is renamed
        try database.setValue([0x10, 0x27], for: Thermostat.targetHandle)
        try database.setValue(Array("Setpoint".utf8), for: ATTHandle(17))
        try database.setValue([0x01, 0x00], for: try #require(database.cccdHandle(forValue: Thermostat.modeHandle)))

        // Then the hash is the same
        #expect(database.databaseHash == before)

        // When the peripheral is renamed: the device name is a value, the layout is the same
        let renamed = try AttributeDatabase(GATTServerDefinition(deviceName: "Other", services: []))
        let bare = try AttributeDatabase(GATTServerDefinition(deviceName: "Bare", services: []))
        #expect(renamed.databaseHash == bare.databaseHash)

        // And a service more (every handle after it moved) hashes differently
        let battery = GATTServerDefinition.Service(
            BluetoothUUID(0x180F), characteristics: [.init(BluetoothUUID(0x2A19), properties: .read, value: [100])])
        let withBattery = try AttributeDatabase(GATTServerDefinition(deviceName: "Bare", services: [battery]))
        #expect(withBattery.databaseHash != bare.databaseHash)
        #expect(before != bare.databaseHash)
    }

    @Test func changedPropertiesMoveTheHash() throws {
        // Given the thermostat whose battery level also indicates, in a table of the same handles
        var definition = Thermostat.definition()
        definition.services[1].characteristics[0].properties = [.read, .notify, .indicate]
        let changed = try AttributeDatabase(definition)
        let original = try Thermostat.database()
        #expect(changed.lastHandle == original.lastHandle)

        // Then only the declaration's properties byte differs, and the hash with it
        #expect(changed.databaseHash != original.databaseHash)
    }
}
