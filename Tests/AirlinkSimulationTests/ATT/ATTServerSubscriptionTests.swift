import AirlinkCore
import Testing

@testable import AirlinkSimulation

@Suite struct ATTServerSubscriptionTests {
    @Test func refusesToNotifyUntilTheClientSubscribes() throws {
        // Given a connection whose client has not written the temperature CCCD
        var server = try Thermostat.server()

        // When the owner notifies
        // Then the server refuses, naming the reason
        #expect {
            try server.notify([1, 2], for: Thermostat.temperatureHandle)
        } throws: { error in
            let error = error as? AirlinkError
            return error?.code == .operationNotSupported
                && error?.message.contains("has not enabled notifications") == true
        }
        #expect(try server.updateValue([3, 4], for: Thermostat.temperatureHandle).isEmpty)
    }

    @Test func cccdAcceptsOnlyBitsThePropertiesAllow() throws {
        // Given a notify-only temperature
        var server = try Thermostat.server()

        // When the client enables indications, then a three-byte value, then notifications
        let indicate = server.handle(.writeRequest(handle: ATTHandle(14), value: [0x02, 0x00]))
        let long = server.handle(.writeRequest(handle: ATTHandle(14), value: [0x01, 0x00, 0x00]))
        let notify = server.handle(.writeRequest(handle: ATTHandle(14), value: [0x01, 0x00]))

        // Then only the last is accepted, reported as a subscription, and reads back per connection
        #expect(
            indicate == [.send(.errorResponse(request: .writeRequest, handle: ATTHandle(14), error: .valueNotAllowed))])
        #expect(
            long == [
                .send(
                    .errorResponse(request: .writeRequest, handle: ATTHandle(14), error: .invalidAttributeValueLength))
            ])
        #expect(
            notify == [
                .subscriptionChanged(valueHandle: Thermostat.temperatureHandle, notify: true, indicate: false),
                .send(.writeResponse),
            ])
        #expect(server.handle(.readRequest(handle: ATTHandle(14))) == [.send(.readResponse([0x01, 0x00]))])
        #expect(try Thermostat.server().clientConfiguration(forValue: Thermostat.temperatureHandle) == 0)
    }

    @Test func notificationsAreTruncatedToMTUMinusThree() throws {
        // Given a subscribed client at the default MTU of 23
        var server = try Thermostat.server()
        _ = server.handle(.writeRequest(handle: ATTHandle(14), value: [0x01, 0x00]))

        // When the owner notifies a 30-byte value
        let actions = try server.notify(Array(0..<30), for: Thermostat.temperatureHandle)

        // Then the notification carries the first 20 bytes
        #expect(
            actions == [.send(.handleValueNotification(handle: Thermostat.temperatureHandle, value: Array(0..<20)))])
    }

    @Test func onlyOneIndicationIsOutstandingUntilConfirmed() throws {
        // Given a client subscribed to mode indications
        var server = try Thermostat.server()
        _ = server.handle(.writeRequest(handle: ATTHandle(20), value: [0x02, 0x00]))

        // When the owner indicates twice
        let first = try server.indicate([2], for: Thermostat.modeHandle)
        let second = try server.indicate([3], for: Thermostat.modeHandle)

        // Then the second waits
        #expect(first == [.send(.handleValueIndication(handle: Thermostat.modeHandle, value: [2]))])
        #expect(second.isEmpty)
        #expect(server.isAwaitingConfirmation && server.queuedIndicationCount == 1)

        // When the client confirms
        let confirmed = server.handle(ATTPDU.handleValueConfirmation.encoded)

        // Then the first is reported confirmed and the second goes out
        #expect(
            confirmed == [
                .indicationConfirmed(handle: Thermostat.modeHandle),
                .send(.handleValueIndication(handle: Thermostat.modeHandle, value: [3])),
            ])
        #expect(server.handle(.handleValueConfirmation) == [.indicationConfirmed(handle: Thermostat.modeHandle)])
        #expect(!server.isAwaitingConfirmation)
    }

    @Test func databaseChangeIndicatesTheRangeOnServiceChanged() throws {
        // Given a client subscribed to Service Changed and to the battery level
        var server = try Thermostat.server()
        _ = server.handle(.writeRequest(handle: ATTHandle(9), value: [0x02, 0x00]))
        _ = server.handle(.writeRequest(handle: ATTHandle(24), value: [0x01, 0x00]))

        // When the firmware adds a characteristic to the battery service
        let updated = try AttributeDatabase(
            Thermostat.definition(batteryExtras: [.init(BluetoothUUID(0x2A1A), properties: .read, value: [1])]))
        let (actions, changed) = server.replaceDatabase(with: updated)

        // Then Service Changed indicates 0x000A–0x001A (the thermostat includes the battery service, so its
        // include declaration changed too) and the battery CCCD inside the range is reset
        #expect(changed == ATTHandle(10)...ATTHandle(26))
        #expect(actions == [.send(.handleValueIndication(handle: ATTHandle(8), value: [0x0A, 0x00, 0x1A, 0x00]))])
        #expect(server.clientConfiguration(forValue: Thermostat.batteryLevelHandle) == 0)
        #expect(server.database.lastHandle == ATTHandle(26))
    }

    @Test func databaseChangeIsSilentForAClientThatDidNotSubscribe() throws {
        var server = try Thermostat.server()
        let updated = try AttributeDatabase(
            Thermostat.definition(batteryExtras: [.init(BluetoothUUID(0x2A1A), properties: .read, value: [1])]))
        let (actions, changed) = server.replaceDatabase(with: updated)
        #expect(actions.isEmpty)
        #expect(changed != nil)
    }
}
