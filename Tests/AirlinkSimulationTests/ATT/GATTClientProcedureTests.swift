import AirlinkCore
import Testing

@testable import AirlinkSimulation

@Suite struct GATTClientProcedureTests {
    @Test func discoversTheWholeThermostatDatabase() throws {
        // Given a client and the thermostat's server, joined by bytes, at the default MTU of 23
        var link = Loopback(try Thermostat.server())

        // When the client discovers services, then characteristics and descriptors of each
        let services = try link.run(DiscoverPrimaryServicesProcedure())
        var characteristics: [GATTCharacteristic] = []
        var descriptors: [GATTDescriptor] = []
        for service in services {
            let found = try link.run(DiscoverCharacteristicsProcedure(of: service))
            characteristics += found
            for characteristic in found {
                descriptors += try link.run(
                    DiscoverDescriptorsProcedure(of: characteristic, in: service, siblings: found))
            }
        }

        // Then it learns what the database holds
        #expect(services.map(\.uuid) == [.genericAccess, .genericAttribute, Thermostat.service, Thermostat.battery])
        #expect(services.map(\.handles) == link.server.database.services.map(\.handles))
        #expect(
            characteristics.map(\.description) == [
                "characteristic 2A00 value 0x0003 read", "characteristic 2A01 value 0x0005 read",
                "characteristic 2A05 value 0x0008 indicate", "characteristic 2A6E value 0x000D read|notify",
                "characteristic 6E400002-B5A3-F393-E0A9-E50E24DCCA9E value 0x0010 read|write",
                "characteristic 6E400003-B5A3-F393-E0A9-E50E24DCCA9E value 0x0013 read|write|indicate",
                "characteristic 2A19 value 0x0017 read|notify",
            ])
        #expect(
            descriptors == [
                GATTDescriptor(uuid: .clientCharacteristicConfiguration, handle: ATTHandle(9)),
                GATTDescriptor(uuid: .clientCharacteristicConfiguration, handle: ATTHandle(14)),
                GATTDescriptor(uuid: .characteristicUserDescription, handle: ATTHandle(17)),
                GATTDescriptor(uuid: .clientCharacteristicConfiguration, handle: ATTHandle(20)),
                GATTDescriptor(uuid: .clientCharacteristicConfiguration, handle: ATTHandle(24)),
            ])
        // And the service search ended on Attribute Not Found past the last service
        #expect(link.trace.contains("< ATT_ERROR_RSP READ_BY_GROUP_TYPE_REQ 0x0019 Attribute Not Found (0x0A)"))
    }

    @Test func discoversAServiceByUUID() throws {
        var link = Loopback(try Thermostat.server())
        let services = try link.run(DiscoverPrimaryServicesProcedure(uuid: Thermostat.battery))
        #expect(services == [GATTService(uuid: Thermostat.battery, handles: ATTHandle(21)...ATTHandle(24))])
    }

    @Test func exchangesMTU() throws {
        var link = Loopback(try Thermostat.server(mtu: 185))
        #expect(try link.run(ExchangeMTUProcedure(clientMTU: 247)) == 185)
        #expect(link.server.mtu == 185)
    }

    @Test func readsAndWritesA300ByteValueAtMTU23() throws {
        // Given a writable 300-byte value at the default MTU
        let blob = BluetoothUUID(0xFFF1)
        let value = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let definition = GATTServerDefinition(
            deviceName: "Blob",
            services: [
                .init(BluetoothUUID(0xFFF0), characteristics: [.init(blob, properties: [.read, .write], value: value)])
            ])
        let database = try AttributeDatabase(definition)
        let handle = try #require(database.valueHandle(of: blob))
        var link = Loopback(ATTServer(database: database))

        // When the client reads it long
        let read = try link.run(ReadLongValueProcedure(handle: handle, mtu: 23))

        // Then it takes a Read and 13 Read Blobs of 22 bytes and yields all 300 bytes
        #expect(read == value)
        #expect(link.trace.filter { $0.hasPrefix("> ") }.count == 14)

        // When the client writes a reversed 300 bytes long
        let reversed = Array(value.reversed())
        try link.run(WriteLongValueProcedure(handle: handle, value: reversed, mtu: 23))

        // Then 17 parts of at most 18 bytes and one Execute Write store it, reported once
        #expect(link.trace.filter { $0.hasPrefix("> ATT_PREPARE_WRITE_REQ") }.count == 17)
        #expect(link.trace.last == "< ATT_EXECUTE_WRITE_RSP")
        #expect(link.server.database[handle]?.value == reversed)
        #expect(link.events == [.valueWritten(handle: handle, value: reversed)])
    }

    @Test func executeWriteRefusesOverlongValuesAndBadOffsets() throws {
        // Given the target temperature
        var server = try Thermostat.server()
        let target = Thermostat.targetHandle

        // When 513 bytes are queued and executed
        _ = server.handle(.prepareWriteRequest(handle: target, offset: 0, value: Array(repeating: 1, count: 300)))
        _ = server.handle(.prepareWriteRequest(handle: target, offset: 300, value: Array(repeating: 2, count: 213)))
        let tooLong = server.handle(.executeWriteRequest(commit: true))

        // And a part past the end is queued and executed
        _ = server.handle(.prepareWriteRequest(handle: target, offset: 5, value: [1]))
        let badOffset = server.handle(.executeWriteRequest(commit: true))

        // Then each is refused with the spec's error and the value stays
        #expect(
            tooLong == [
                .send(
                    .errorResponse(request: .executeWriteRequest, handle: target, error: .invalidAttributeValueLength))
            ])
        #expect(
            badOffset == [.send(.errorResponse(request: .executeWriteRequest, handle: target, error: .invalidOffset))])
        #expect(server.database[target]?.value == [0xD0, 0x07])

        // And a cancelled queue writes nothing
        _ = server.handle(.prepareWriteRequest(handle: target, offset: 0, value: [9]))
        #expect(server.handle(.executeWriteRequest(commit: false)) == [.send(.executeWriteResponse)])
        #expect(server.database[target]?.value == [0xD0, 0x07])
    }

    @Test func refusedProceduresFailWithTheATTCause() throws {
        // Given the thermostat
        var link = Loopback(try Thermostat.server())

        // When the client reads Service Changed (not readable) and long-writes the read-only temperature
        let readError = #expect(throws: AirlinkError.self) {
            try link.run(ReadLongValueProcedure(handle: ATTHandle(8)))
        }
        let writeError = #expect(throws: AirlinkError.self) {
            try link.run(
                WriteLongValueProcedure(handle: Thermostat.temperatureHandle, value: Array(repeating: 0, count: 40)))
        }

        // Then both fail with .attribute and the ATT error on its handle; the write cancelled its queue
        #expect(readError?.code == .attribute)
        #expect(readError?.cause == .att(.readNotPermitted, handle: ATTHandle(8)))
        #expect(writeError?.cause == .att(.writeNotPermitted, handle: Thermostat.temperatureHandle))
        #expect(link.trace.last == "< ATT_EXECUTE_WRITE_RSP")
        #expect(link.trace.dropLast().last == "> ATT_EXECUTE_WRITE_REQ cancel")
    }
}
