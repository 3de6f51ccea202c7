import AirlinkCore
import AirlinkSimulation
import Testing

/// A definition that places services and characteristics at later handles (a recorded device's layout).
@Suite struct AttributeDatabaseGapTests {
    static func definition(service: ATTHandle?, characteristic: ATTHandle?) -> GATTServerDefinition {
        var level = GATTServerDefinition.Characteristic(.batteryLevel, properties: [.read, .notify], value: [87])
        level.handle = characteristic
        var battery = GATTServerDefinition.Service(.battery, characteristics: [level])
        battery.handle = service
        return GATTServerDefinition(deviceName: "B", services: [battery], genericAttribute: [])
    }

    @Test func aServiceAndACharacteristicTakeTheirHandlesGapsIncluded() throws {
        // Given the battery service placed at 0x0010 and its level's declaration at 0x0020
        let database = try AttributeDatabase(Self.definition(service: ATTHandle(0x10), characteristic: ATTHandle(0x20)))

        // Then the service runs from 0x0010 to the CCCD at 0x0022, and lookups find each attribute
        #expect(database.services.last?.handles == ATTHandle(0x10)...ATTHandle(0x22))
        #expect(database.valueHandle(of: .batteryLevel) == ATTHandle(0x21))
        #expect(database[ATTHandle(0x21)]?.value == [87])
        #expect(database[ATTHandle(0x11)] == nil)
        #expect(database.attributes(in: ATTHandle(0x07)...ATTHandle(0x1F)).map(\.handle) == [ATTHandle(0x10)])
        #expect(database.lastHandle == ATTHandle(0x22))
    }

    @Test func aHandleTheAttributesBeforeItTakeIsRefused() throws {
        // Given the battery service placed at 0x0003, inside the Generic Access service
        let error = #expect(throws: AirlinkError.self) {
            try AttributeDatabase(Self.definition(service: ATTHandle(0x03), characteristic: nil))
        }

        // Then the definition is refused, naming the next free handle
        #expect(error?.code == .invalidSpecification)
        #expect(error?.message.contains("service 180F asks for handle 0x0003") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("the next free handle is 0x0007") == true, "\(error?.message ?? "")")
    }
}
