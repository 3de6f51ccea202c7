extension Advertisement {
    /// Service data: a service UUID and bytes the service defines (CSS Part A, 1.11).
    ///
    /// Encoded with the Service Data AD type of the UUID's shortest form: 16, 32 or 128 bits.
    public struct ServiceData: Hashable, Sendable, Codable {
        /// The service's UUID.
        public var uuid: BluetoothUUID
        /// The bytes after the UUID.
        public var data: [UInt8]

        /// Creates service data.
        ///
        /// - Parameters:
        ///   - uuid: the service's UUID.
        ///   - data: the bytes after it.
        public init(uuid: BluetoothUUID, data: [UInt8]) {
            self.uuid = uuid
            self.data = data
        }

        /// The AD type that carries this service data, chosen by the UUID's shortest form.
        public var adType: ADType {
            switch uuid.shortestByteCount {
            case 2: .serviceData16BitUUID
            case 4: .serviceData32BitUUID
            default: .serviceData128BitUUID
            }
        }
    }
}
