// The SIG assigned numbers Airlink names, as constants. Their names and slugs live in one table,
// `BluetoothUUID.assignedNumbers` in BluetoothUUID+Names.swift; add a constant there too.

/// Services (Bluetooth Assigned Numbers, GATT Services).
extension BluetoothUUID {
    /// 0x1800, Generic Access Service.
    public static let genericAccess = BluetoothUUID(0x1800)
    /// 0x1801, Generic Attribute Service.
    public static let genericAttribute = BluetoothUUID(0x1801)
    /// 0x1802, Immediate Alert Service.
    public static let immediateAlert = BluetoothUUID(0x1802)
    /// 0x1803, Link Loss Service.
    public static let linkLoss = BluetoothUUID(0x1803)
    /// 0x1804, Tx Power Service.
    public static let txPower = BluetoothUUID(0x1804)
    /// 0x1805, Current Time Service.
    public static let currentTime = BluetoothUUID(0x1805)
    /// 0x1808, Glucose Service.
    public static let glucose = BluetoothUUID(0x1808)
    /// 0x1809, Health Thermometer Service.
    public static let healthThermometer = BluetoothUUID(0x1809)
    /// 0x180A, Device Information Service.
    public static let deviceInformation = BluetoothUUID(0x180A)
    /// 0x180D, Heart Rate Service.
    public static let heartRate = BluetoothUUID(0x180D)
    /// 0x180F, Battery Service.
    public static let battery = BluetoothUUID(0x180F)
    /// 0x1810, Blood Pressure Service.
    public static let bloodPressure = BluetoothUUID(0x1810)
    /// 0x1812, Human Interface Device Service.
    public static let humanInterfaceDevice = BluetoothUUID(0x1812)
    /// 0x1814, Running Speed and Cadence Service.
    public static let runningSpeedAndCadence = BluetoothUUID(0x1814)
    /// 0x1816, Cycling Speed and Cadence Service.
    public static let cyclingSpeedAndCadence = BluetoothUUID(0x1816)
    /// 0x1818, Cycling Power Service.
    public static let cyclingPower = BluetoothUUID(0x1818)
    /// 0x1819, Location and Navigation Service.
    public static let locationAndNavigation = BluetoothUUID(0x1819)
    /// 0x181A, Environmental Sensing Service.
    public static let environmentalSensing = BluetoothUUID(0x181A)
    /// 0x181C, User Data Service.
    public static let userData = BluetoothUUID(0x181C)
    /// 0x181D, Weight Scale Service.
    public static let weightScale = BluetoothUUID(0x181D)
    /// 0x1826, Fitness Machine Service.
    public static let fitnessMachine = BluetoothUUID(0x1826)
}

/// Characteristics (Bluetooth Assigned Numbers, Characteristic UUIDs).
extension BluetoothUUID {
    /// 0x2A00, Device Name.
    public static let deviceName = BluetoothUUID(0x2A00)
    /// 0x2A01, Appearance.
    public static let appearance = BluetoothUUID(0x2A01)
    /// 0x2A02, Peripheral Privacy Flag.
    public static let peripheralPrivacyFlag = BluetoothUUID(0x2A02)
    /// 0x2A03, Reconnection Address.
    public static let reconnectionAddress = BluetoothUUID(0x2A03)
    /// 0x2A04, Peripheral Preferred Connection Parameters.
    public static let peripheralPreferredConnectionParameters = BluetoothUUID(0x2A04)
    /// 0x2A05, Service Changed.
    public static let serviceChanged = BluetoothUUID(0x2A05)
    /// 0x2A06, Alert Level.
    public static let alertLevel = BluetoothUUID(0x2A06)
    /// 0x2A07, Tx Power Level.
    public static let txPowerLevel = BluetoothUUID(0x2A07)
    /// 0x2A19, Battery Level.
    public static let batteryLevel = BluetoothUUID(0x2A19)
    /// 0x2A1C, Temperature Measurement.
    public static let temperatureMeasurement = BluetoothUUID(0x2A1C)
    /// 0x2A1D, Temperature Type.
    public static let temperatureType = BluetoothUUID(0x2A1D)
    /// 0x2A1E, Intermediate Temperature.
    public static let intermediateTemperature = BluetoothUUID(0x2A1E)
    /// 0x2A21, Measurement Interval.
    public static let measurementInterval = BluetoothUUID(0x2A21)
    /// 0x2A23, System ID.
    public static let systemID = BluetoothUUID(0x2A23)
    /// 0x2A24, Model Number String.
    public static let modelNumberString = BluetoothUUID(0x2A24)
    /// 0x2A25, Serial Number String.
    public static let serialNumberString = BluetoothUUID(0x2A25)
    /// 0x2A26, Firmware Revision String.
    public static let firmwareRevisionString = BluetoothUUID(0x2A26)
    /// 0x2A27, Hardware Revision String.
    public static let hardwareRevisionString = BluetoothUUID(0x2A27)
    /// 0x2A28, Software Revision String.
    public static let softwareRevisionString = BluetoothUUID(0x2A28)
    /// 0x2A29, Manufacturer Name String.
    public static let manufacturerNameString = BluetoothUUID(0x2A29)
    /// 0x2A37, Heart Rate Measurement.
    public static let heartRateMeasurement = BluetoothUUID(0x2A37)
    /// 0x2A38, Body Sensor Location.
    public static let bodySensorLocation = BluetoothUUID(0x2A38)
    /// 0x2A39, Heart Rate Control Point.
    public static let heartRateControlPoint = BluetoothUUID(0x2A39)
    /// 0x2A50, PnP ID.
    public static let pnpID = BluetoothUUID(0x2A50)
    /// 0x2A6D, Pressure.
    public static let pressure = BluetoothUUID(0x2A6D)
    /// 0x2A6E, Temperature.
    public static let temperature = BluetoothUUID(0x2A6E)
    /// 0x2A6F, Humidity.
    public static let humidity = BluetoothUUID(0x2A6F)
    /// 0x2AA6, Central Address Resolution.
    public static let centralAddressResolution = BluetoothUUID(0x2AA6)
    /// 0x2AC9, Resolvable Private Address Only.
    public static let resolvablePrivateAddressOnly = BluetoothUUID(0x2AC9)
    /// 0x2B29, Client Supported Features.
    public static let clientSupportedFeatures = BluetoothUUID(0x2B29)
    /// 0x2B2A, Database Hash.
    public static let databaseHash = BluetoothUUID(0x2B2A)
    /// 0x2B3A, Server Supported Features.
    public static let serverSupportedFeatures = BluetoothUUID(0x2B3A)
}

/// Descriptors (Bluetooth Assigned Numbers, Descriptors).
extension BluetoothUUID {
    /// 0x2900, Characteristic Extended Properties.
    public static let characteristicExtendedProperties = BluetoothUUID(0x2900)
    /// 0x2901, Characteristic User Description.
    public static let characteristicUserDescription = BluetoothUUID(0x2901)
    /// 0x2902, Client Characteristic Configuration.
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
    /// 0x2903, Server Characteristic Configuration.
    public static let serverCharacteristicConfiguration = BluetoothUUID(0x2903)
    /// 0x2904, Characteristic Presentation Format.
    public static let characteristicPresentationFormat = BluetoothUUID(0x2904)
    /// 0x2905, Characteristic Aggregate Format.
    public static let characteristicAggregateFormat = BluetoothUUID(0x2905)
    /// 0x2906, Valid Range.
    public static let validRange = BluetoothUUID(0x2906)
    /// 0x2907, External Report Reference.
    public static let externalReportReference = BluetoothUUID(0x2907)
    /// 0x2908, Report Reference.
    public static let reportReference = BluetoothUUID(0x2908)
    /// 0x290C, Environmental Sensing Measurement.
    public static let environmentalSensingMeasurement = BluetoothUUID(0x290C)
}

/// GATT declarations (Bluetooth Assigned Numbers, Declarations).
extension BluetoothUUID {
    /// 0x2800, Primary Service.
    public static let primaryServiceDeclaration = BluetoothUUID(0x2800)
    /// 0x2801, Secondary Service.
    public static let secondaryServiceDeclaration = BluetoothUUID(0x2801)
    /// 0x2802, Include.
    public static let includeDeclaration = BluetoothUUID(0x2802)
    /// 0x2803, Characteristic.
    public static let characteristicDeclaration = BluetoothUUID(0x2803)
}
