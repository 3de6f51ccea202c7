extension Advertisement {
    /// Manufacturer specific data: a company identifier and the company's bytes (CSS Part A, 1.4).
    public struct ManufacturerData: Hashable, Sendable, Codable {
        /// The company identifier from Bluetooth Assigned Numbers (0x004C Apple, 0x0059 Nordic Semiconductor).
        public var companyID: UInt16
        /// The bytes after the company identifier.
        public var data: [UInt8]

        /// Creates manufacturer specific data.
        ///
        /// - Parameters:
        ///   - companyID: the company identifier.
        ///   - data: the bytes after it.
        public init(companyID: UInt16, data: [UInt8]) {
            self.companyID = companyID
            self.data = data
        }
    }
}
