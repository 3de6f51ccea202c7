import AirlinkCore

/// The PnP ID characteristic (0x2A50, Device Information Service 1.1, 3.10): 7 bytes, little-endian:
/// Vendor ID Source (uint8: 1 Bluetooth SIG, 2 USB-IF), Vendor ID, Product ID, Product Version (uint16 each).
public struct PnPID: GATTValue, Hashable {
    /// Who assigned the vendor ID.
    public enum VendorIDSource: UInt8, Sendable, Hashable {
        /// The Bluetooth SIG (a company identifier).
        case bluetoothSIG = 1
        /// The USB Implementers Forum.
        case usbImplementersForum = 2
    }

    /// Who assigned ``vendorID``.
    public let vendorIDSource: VendorIDSource
    /// The vendor, as a company identifier of the source ``vendorIDSource`` names.
    public let vendorID: UInt16
    /// The vendor's product.
    public let productID: UInt16
    /// The product's version (0xJJMN: major, minor, sub-minor).
    public let productVersion: UInt16

    /// Creates a PnP ID.
    public init(vendorIDSource: VendorIDSource, vendorID: UInt16, productID: UInt16, productVersion: UInt16) {
        self.vendorIDSource = vendorIDSource
        self.vendorID = vendorID
        self.productID = productID
        self.productVersion = productVersion
    }

    /// Decodes the 7 bytes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for another length or an unknown vendor ID source.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try Self.requireLength(gattBytes, 7...7)
        guard let source = VendorIDSource(rawValue: gattBytes[0]) else {
            throw AirlinkError(
                .malformedData, "PnPID's vendor ID source is 1 (SIG) or 2 (USB-IF), not \(gattBytes[0]) (offset 0)")
        }
        func uint16(_ offset: Int) -> UInt16 { UInt16(gattBytes[offset]) | UInt16(gattBytes[offset + 1]) << 8 }
        self.init(vendorIDSource: source, vendorID: uint16(1), productID: uint16(3), productVersion: uint16(5))
    }

    /// The 7 bytes.
    public var gattBytes: [UInt8] {
        [vendorIDSource.rawValue] + vendorID.gattBytes + productID.gattBytes + productVersion.gattBytes
    }
}
