extension BluetoothUUID {
    /// One row of the assigned-numbers table: a SIG UUID with the name the specification gives it and
    /// the slug a command-line user types for it.
    public struct AssignedNumber: Hashable, Sendable {
        /// What the UUID identifies in a GATT database.
        public enum Kind: String, Hashable, Sendable, Codable {
            /// A service, such as the Battery Service.
            case service
            /// A characteristic, such as Battery Level.
            case characteristic
            /// A characteristic descriptor, such as the Client Characteristic Configuration.
            case descriptor
            /// An attribute type that declares GATT structure (Core Spec Vol 3, Part G, 3).
            case declaration
        }

        /// The assigned UUID the name belongs to.
        public let uuid: BluetoothUUID
        /// The name from Bluetooth Assigned Numbers: `"Battery Service"`, `"Battery Level"`.
        public let name: String
        /// Lowercase words joined by hyphens, without the word "service": `"battery"`, `"battery-level"`.
        public let slug: String
        /// What the UUID identifies.
        public let kind: Kind

        init(_ uuid: BluetoothUUID, _ name: String, _ slug: String, _ kind: Kind) {
            self.uuid = uuid
            self.name = name
            self.slug = slug
            self.kind = kind
        }
    }

    /// The assigned numbers Airlink knows by name, services first, then characteristics, descriptors
    /// and declarations; the one table behind ``name``, ``slug`` and ``init(named:)``.
    public static let assignedNumbers: [AssignedNumber] = [
        AssignedNumber(.genericAccess, "Generic Access Service", "generic-access", .service),
        AssignedNumber(.genericAttribute, "Generic Attribute Service", "generic-attribute", .service),
        AssignedNumber(.immediateAlert, "Immediate Alert Service", "immediate-alert", .service),
        AssignedNumber(.linkLoss, "Link Loss Service", "link-loss", .service),
        AssignedNumber(.txPower, "Tx Power Service", "tx-power", .service),
        AssignedNumber(.currentTime, "Current Time Service", "current-time", .service),
        AssignedNumber(.glucose, "Glucose Service", "glucose", .service),
        AssignedNumber(.healthThermometer, "Health Thermometer Service", "health-thermometer", .service),
        AssignedNumber(.deviceInformation, "Device Information Service", "device-information", .service),
        AssignedNumber(.heartRate, "Heart Rate Service", "heart-rate", .service),
        AssignedNumber(.battery, "Battery Service", "battery", .service),
        AssignedNumber(.bloodPressure, "Blood Pressure Service", "blood-pressure", .service),
        AssignedNumber(.humanInterfaceDevice, "Human Interface Device Service", "human-interface-device", .service),
        AssignedNumber(
            .runningSpeedAndCadence, "Running Speed and Cadence Service", "running-speed-and-cadence", .service),
        AssignedNumber(
            .cyclingSpeedAndCadence, "Cycling Speed and Cadence Service", "cycling-speed-and-cadence", .service),
        AssignedNumber(.cyclingPower, "Cycling Power Service", "cycling-power", .service),
        AssignedNumber(.locationAndNavigation, "Location and Navigation Service", "location-and-navigation", .service),
        AssignedNumber(.environmentalSensing, "Environmental Sensing Service", "environmental-sensing", .service),
        AssignedNumber(.userData, "User Data Service", "user-data", .service),
        AssignedNumber(.weightScale, "Weight Scale Service", "weight-scale", .service),
        AssignedNumber(.fitnessMachine, "Fitness Machine Service", "fitness-machine", .service),
        AssignedNumber(.deviceName, "Device Name", "device-name", .characteristic),
        AssignedNumber(.appearance, "Appearance", "appearance", .characteristic),
        AssignedNumber(.peripheralPrivacyFlag, "Peripheral Privacy Flag", "peripheral-privacy-flag", .characteristic),
        AssignedNumber(.reconnectionAddress, "Reconnection Address", "reconnection-address", .characteristic),
        AssignedNumber(
            .peripheralPreferredConnectionParameters, "Peripheral Preferred Connection Parameters",
            "peripheral-preferred-connection-parameters", .characteristic),
        AssignedNumber(.serviceChanged, "Service Changed", "service-changed", .characteristic),
        AssignedNumber(.alertLevel, "Alert Level", "alert-level", .characteristic),
        AssignedNumber(.txPowerLevel, "Tx Power Level", "tx-power-level", .characteristic),
        AssignedNumber(.batteryLevel, "Battery Level", "battery-level", .characteristic),
        AssignedNumber(.temperatureMeasurement, "Temperature Measurement", "temperature-measurement", .characteristic),
        AssignedNumber(.temperatureType, "Temperature Type", "temperature-type", .characteristic),
        AssignedNumber(
            .intermediateTemperature, "Intermediate Temperature", "intermediate-temperature", .characteristic),
        AssignedNumber(.measurementInterval, "Measurement Interval", "measurement-interval", .characteristic),
        AssignedNumber(.systemID, "System ID", "system-id", .characteristic),
        AssignedNumber(.modelNumberString, "Model Number String", "model-number-string", .characteristic),
        AssignedNumber(.serialNumberString, "Serial Number String", "serial-number-string", .characteristic),
        AssignedNumber(
            .firmwareRevisionString, "Firmware Revision String", "firmware-revision-string", .characteristic),
        AssignedNumber(
            .hardwareRevisionString, "Hardware Revision String", "hardware-revision-string", .characteristic),
        AssignedNumber(
            .softwareRevisionString, "Software Revision String", "software-revision-string", .characteristic),
        AssignedNumber(
            .manufacturerNameString, "Manufacturer Name String", "manufacturer-name-string", .characteristic),
        AssignedNumber(.heartRateMeasurement, "Heart Rate Measurement", "heart-rate-measurement", .characteristic),
        AssignedNumber(.bodySensorLocation, "Body Sensor Location", "body-sensor-location", .characteristic),
        AssignedNumber(.heartRateControlPoint, "Heart Rate Control Point", "heart-rate-control-point", .characteristic),
        AssignedNumber(.pnpID, "PnP ID", "pnp-id", .characteristic),
        AssignedNumber(.pressure, "Pressure", "pressure", .characteristic),
        AssignedNumber(.temperature, "Temperature", "temperature", .characteristic),
        AssignedNumber(.humidity, "Humidity", "humidity", .characteristic),
        AssignedNumber(
            .centralAddressResolution, "Central Address Resolution", "central-address-resolution", .characteristic),
        AssignedNumber(
            .resolvablePrivateAddressOnly, "Resolvable Private Address Only", "resolvable-private-address-only",
            .characteristic),
        AssignedNumber(
            .clientSupportedFeatures, "Client Supported Features", "client-supported-features", .characteristic),
        AssignedNumber(.databaseHash, "Database Hash", "database-hash", .characteristic),
        AssignedNumber(
            .serverSupportedFeatures, "Server Supported Features", "server-supported-features", .characteristic),
        AssignedNumber(
            .characteristicExtendedProperties, "Characteristic Extended Properties",
            "characteristic-extended-properties", .descriptor),
        AssignedNumber(
            .characteristicUserDescription, "Characteristic User Description", "characteristic-user-description",
            .descriptor),
        AssignedNumber(
            .clientCharacteristicConfiguration, "Client Characteristic Configuration",
            "client-characteristic-configuration", .descriptor),
        AssignedNumber(
            .serverCharacteristicConfiguration, "Server Characteristic Configuration",
            "server-characteristic-configuration", .descriptor),
        AssignedNumber(
            .characteristicPresentationFormat, "Characteristic Presentation Format",
            "characteristic-presentation-format", .descriptor),
        AssignedNumber(
            .characteristicAggregateFormat, "Characteristic Aggregate Format", "characteristic-aggregate-format",
            .descriptor),
        AssignedNumber(.validRange, "Valid Range", "valid-range", .descriptor),
        AssignedNumber(.externalReportReference, "External Report Reference", "external-report-reference", .descriptor),
        AssignedNumber(.reportReference, "Report Reference", "report-reference", .descriptor),
        AssignedNumber(
            .environmentalSensingMeasurement, "Environmental Sensing Measurement", "environmental-sensing-measurement",
            .descriptor),
        AssignedNumber(.primaryServiceDeclaration, "Primary Service", "primary-service", .declaration),
        AssignedNumber(.secondaryServiceDeclaration, "Secondary Service", "secondary-service", .declaration),
        AssignedNumber(.includeDeclaration, "Include", "include", .declaration),
        AssignedNumber(.characteristicDeclaration, "Characteristic", "characteristic", .declaration),
    ]

    /// The specification's name for this UUID, such as `"Battery Level"`, or `nil` if Airlink does not know it.
    public var name: String? { Self.assignedNumbersByUUID[self]?.name }

    /// The slug for this UUID, such as `"battery-level"`, or `nil` if Airlink does not know it.
    public var slug: String? { Self.assignedNumbersByUUID[self]?.slug }

    /// Creates a UUID from what a person types: a slug (`battery-level`), a name in any case
    /// (`Battery Level`, `battery service`), a constant's name (`batteryLevel`), or any string that
    /// ``init(parsing:)`` accepts (`2A19`, `0x2A19`, the 36-character form).
    ///
    /// Names compare without regard to case, spaces, hyphens and underscores.
    ///
    /// - Parameter text: the name or UUID to look up.
    /// - Throws: ``AirlinkError/Code/invalidUUID``, naming the string; a string that looks like hex digits
    ///   gets ``init(parsing:)``'s explanation, any other string a list of similar slugs if there are some.
    public init(named text: String) throws(AirlinkError) {
        if let entry = Self.assignedNumbersByKey[Self.lookupKey(text)] {
            self = entry.uuid
            return
        }
        let looksLikeUUID = !text.isEmpty && text.allSatisfy { $0.isHexDigit || $0 == "-" || $0 == "x" || $0 == "X" }
        if looksLikeUUID {
            try self.init(parsing: text)
            return
        }
        var message = "\"\(text)\" is neither a known Bluetooth name nor a UUID: write a slug such as battery-level, "
        message += "a name such as \"Battery Level\", or a UUID such as 2A19"
        let key = Self.lookupKey(text)
        let similar = key.isEmpty ? [] : Self.assignedNumbers.filter { Self.lookupKey($0.slug).contains(key) }
        if !similar.isEmpty {
            message += "; did you mean " + similar.prefix(3).map(\.slug).joined(separator: ", ") + "?"
        }
        throw AirlinkError(.invalidUUID, message)
    }

    private static let assignedNumbersByUUID: [BluetoothUUID: AssignedNumber] = {
        var table: [BluetoothUUID: AssignedNumber] = [:]
        for entry in assignedNumbers {
            precondition(table[entry.uuid] == nil, "\(entry.uuid) appears twice in BluetoothUUID.assignedNumbers")
            table[entry.uuid] = entry
        }
        return table
    }()

    private static let assignedNumbersByKey: [String: AssignedNumber] = {
        var table: [String: AssignedNumber] = [:]
        for entry in assignedNumbers {
            for key in Set([lookupKey(entry.name), lookupKey(entry.slug)]) {
                precondition(table[key] == nil, "\"\(key)\" names two entries of BluetoothUUID.assignedNumbers")
                table[key] = entry
            }
        }
        return table
    }()

    /// Lowercased, without spaces, hyphens and underscores: `Battery Level`, `battery-level` and
    /// `batteryLevel` all become `batterylevel`.
    static func lookupKey(_ text: String) -> String {
        String(text.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" })
    }
}
