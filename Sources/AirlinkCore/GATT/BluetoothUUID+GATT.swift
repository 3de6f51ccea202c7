extension BluetoothUUID {
    /// 0x2800, the Primary Service declaration's attribute type (Core Spec Vol 3, Part G, 3.1).
    public static let primaryServiceDeclaration = BluetoothUUID(0x2800)
    /// 0x2801, the Secondary Service declaration's attribute type (Vol 3, Part G, 3.1).
    public static let secondaryServiceDeclaration = BluetoothUUID(0x2801)
    /// 0x2802, the Include declaration's attribute type (Vol 3, Part G, 3.2).
    public static let includeDeclaration = BluetoothUUID(0x2802)
    /// 0x2803, the Characteristic declaration's attribute type (Vol 3, Part G, 3.3.1).
    public static let characteristicDeclaration = BluetoothUUID(0x2803)
    /// 0x2900, the Characteristic Extended Properties descriptor (Vol 3, Part G, 3.3.3.1).
    public static let characteristicExtendedProperties = BluetoothUUID(0x2900)
    /// 0x2901, the Characteristic User Description descriptor (Vol 3, Part G, 3.3.3.2).
    public static let characteristicUserDescription = BluetoothUUID(0x2901)
    /// 0x2902, the Client Characteristic Configuration descriptor, the CCCD (Vol 3, Part G, 3.3.3.3).
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
    /// 0x1800, the Generic Access service (Vol 3, Part C, 12).
    public static let genericAccess = BluetoothUUID(0x1800)
    /// 0x1801, the Generic Attribute service (Vol 3, Part G, 7).
    public static let genericAttribute = BluetoothUUID(0x1801)
    /// 0x2A00, the Device Name characteristic (Vol 3, Part C, 12.1).
    public static let deviceName = BluetoothUUID(0x2A00)
    /// 0x2A01, the Appearance characteristic (Vol 3, Part C, 12.2).
    public static let appearance = BluetoothUUID(0x2A01)
    /// 0x2A05, the Service Changed characteristic (Vol 3, Part G, 7.1).
    public static let serviceChanged = BluetoothUUID(0x2A05)
}
