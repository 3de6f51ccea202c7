import Testing

@testable import AirlinkCore

@Suite struct BluetoothUUIDAssignedNumbersTests {
    @Test func constantsCarryTheirAssignedNumbers() {
        // Given a few constants from each group, Then each is its SIG number over the Base UUID
        #expect(BluetoothUUID.battery == BluetoothUUID(0x180F))
        #expect(BluetoothUUID.environmentalSensing == BluetoothUUID(0x181A))
        #expect(BluetoothUUID.batteryLevel == BluetoothUUID(0x2A19))
        #expect(BluetoothUUID.databaseHash == BluetoothUUID(0x2B2A))
        #expect(BluetoothUUID.clientSupportedFeatures == BluetoothUUID(0x2B29))
        #expect(BluetoothUUID.clientCharacteristicConfiguration == BluetoothUUID(0x2902))
        #expect(BluetoothUUID.characteristicDeclaration == BluetoothUUID(0x2803))
    }

    @Test(arguments: [
        (BluetoothUUID.battery, "Battery Service", "battery"),
        (.batteryLevel, "Battery Level", "battery-level"),
        (.deviceInformation, "Device Information Service", "device-information"),
        (
            .clientCharacteristicConfiguration, "Client Characteristic Configuration",
            "client-characteristic-configuration"
        ),
        (.pnpID, "PnP ID", "pnp-id"),
        (.primaryServiceDeclaration, "Primary Service", "primary-service"),
    ])
    func knownUUIDsHaveANameAndASlug(uuid: BluetoothUUID, name: String, slug: String) {
        #expect(uuid.name == name)
        #expect(uuid.slug == slug)
    }

    @Test(arguments: [
        (BluetoothUUID(0x2A2A), "IEEE 11073-20601 Regulatory Certification Data List", Kind.characteristic),
        (BluetoothUUID(0x185B), "Ranging Service", .service),
        (BluetoothUUID(0x2B29), "Client Supported Features", .characteristic),
        (BluetoothUUID(0x2914), "Process Tolerances", .descriptor),
        (BluetoothUUID(0x1805), "Current Time Service", .service),
        (BluetoothUUID(0x2A2B), "Current Time", .characteristic),
    ])
    func everySIGAssignedUUIDHasItsName(uuid: BluetoothUUID, name: String, kind: Kind) throws {
        // Given UUIDs the hand-written table lacked (2A2A was "unknown"), and a name both a service and a
        // characteristic use
        // Then each has the SIG's name, and its name and slug find it again
        let entry = try #require(BluetoothUUID.assignedNumbers.first { $0.uuid == uuid })
        #expect(entry.name == name)
        #expect(entry.kind == kind)
        #expect(try BluetoothUUID(named: entry.slug) == uuid)
        #expect(try BluetoothUUID(named: name) == uuid)
    }

    @Test func theTableHoldsTheWholeSIGList() {
        // Then it holds the SIG's lists (hundreds of characteristics), and says where they come from
        let kinds = Dictionary(grouping: BluetoothUUID.assignedNumbers, by: \.kind).mapValues(\.count)
        #expect(kinds[.service, default: 0] >= 70)
        #expect(kinds[.characteristic, default: 0] >= 400)
        #expect(kinds[.descriptor, default: 0] >= 20)
        #expect(kinds[.declaration] == 4)
        #expect(BluetoothUUID.assignedNumbersSource.contains("Bluetooth SIG"))
    }

    @Test func companiesAndVendorUUIDsHaveNames() throws {
        #expect(CompanyIdentifiers.name(of: 0x004C) == "Apple, Inc.")
        #expect(CompanyIdentifiers.name(of: 0x000D) == "Texas Instruments Inc.")
        #expect(CompanyIdentifiers.name(of: 0x0059) == "Nordic Semiconductor ASA")
        let uart = try BluetoothUUID(parsing: "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
        #expect(uart.vendorName == "Nordic UART Service")
        #expect(uart.name == nil)
    }

    typealias Kind = BluetoothUUID.AssignedNumber.Kind

    @Test func unknownUUIDHasNoName() throws {
        // Given a vendor UUID
        let uuid = try BluetoothUUID(parsing: "68753A44-4D6F-1226-9C60-0050E4C00066")

        // Then it has neither name nor slug
        #expect(uuid.name == nil)
        #expect(uuid.slug == nil)
    }

    @Test(arguments: [
        "battery-level", "Battery Level", "BATTERY LEVEL", "batteryLevel", "battery_level", "2A19", "0x2a19",
        "00002A19-0000-1000-8000-00805F9B34FB",
    ])
    func namedAcceptsSlugsNamesAndUUIDs(text: String) throws {
        #expect(try BluetoothUUID(named: text) == .batteryLevel)
    }

    @Test func serviceSlugLeavesOutTheWordService() throws {
        // Given the slug and the full name of the Battery Service
        // When each is looked up
        // Then both give 180F, while battery-level stays a characteristic
        #expect(try BluetoothUUID(named: "battery") == .battery)
        #expect(try BluetoothUUID(named: "battery service") == .battery)
        #expect(try BluetoothUUID(named: "battery-level") != .battery)
    }

    @Test func everyTableEntryRoundTripsThroughItsNameAndSlug() throws {
        for entry in BluetoothUUID.assignedNumbers {
            #expect(try BluetoothUUID(named: entry.slug) == entry.uuid, "slug \(entry.slug)")
            #expect(try BluetoothUUID(named: entry.name) == entry.uuid, "name \(entry.name)")
            #expect(entry.uuid.name == entry.name)
            #expect(entry.uuid.slug == entry.slug)
        }
    }

    @Test func tableIsConsistent() {
        // Given the assigned-numbers table
        let table = BluetoothUUID.assignedNumbers

        // Then UUIDs, slugs and lookup keys are unique, slugs are lowercase words joined by hyphens,
        // and no slug could be read as hex digits
        #expect(Set(table.map(\.uuid)).count == table.count)
        #expect(Set(table.map(\.slug)).count == table.count)
        let keys = table.flatMap { Set([BluetoothUUID.lookupKey($0.name), BluetoothUUID.lookupKey($0.slug)]) }
        #expect(Set(keys).count == keys.count)
        for entry in table {
            #expect(entry.slug.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
            #expect((try? BluetoothUUID(parsing: entry.slug)) == nil, "\(entry.slug) parses as a UUID")
        }
        #expect(table.filter { $0.kind == .service }.allSatisfy { $0.name.hasSuffix(" Service") })
    }

    @Test func unknownNameIsRejectedWithSuggestions() {
        // When a partial name is looked up
        // Then the error names the string and suggests slugs that contain it
        #expect {
            try BluetoothUUID(named: "batt")
        } throws: { error in
            guard let error = error as? AirlinkError else { return false }
            return error.code == .invalidUUID && error.message.contains("\"batt\"")
                && error.message.contains("did you mean battery, battery-level")
        }
    }

    @Test func unknownNameWithoutSimilarSlugsSaysWhatToWrite() {
        #expect {
            try BluetoothUUID(named: "thermostat-mode")
        } throws: { error in
            guard let error = error as? AirlinkError else { return false }
            return error.code == .invalidUUID && error.message.contains("\"thermostat-mode\"")
                && error.message.contains("battery-level") && !error.message.contains("did you mean")
        }
    }

    @Test func hexLookingInputGetsTheParsingExplanation() {
        // Given a string of hex digits of the wrong length
        // Then the error explains the UUID forms, as init(parsing:) does
        #expect {
            try BluetoothUUID(named: "2A1")
        } throws: { error in
            guard let error = error as? AirlinkError else { return false }
            return error.code == .invalidUUID && error.message.contains("\"2A1\"")
                && error.message.contains("it has 3 characters")
        }
    }
}
