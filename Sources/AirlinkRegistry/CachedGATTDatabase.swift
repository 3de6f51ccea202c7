import AirlinkCore

/// The part of a device's GATT database the layers discovered, kept in its ``ConnectionRecord`` so that a
/// later connection (in this process or another) can use the handles without discovering them again.
///
/// It is only as good as the layout it was taken from: the layers reuse it when the device's Database Hash
/// (``ConnectionRecord/databaseHash``) still matches, or when the app opted in to trusting it (Docs/GATTCaching.md).
///
/// ```json
/// "database": { "complete": false, "services": [
///   { "uuid": "180F", "start": 14, "end": 17, "complete": true,
///     "characteristics": [ { "uuid": "2A19", "declaration": 15, "value": 16, "properties": 18 } ] } ] }
/// ```
public struct CachedGATTDatabase: Hashable, Sendable {
    /// One primary service and the characteristics of it that were discovered.
    public struct Service: Hashable, Sendable {
        /// The service: its UUID and handle range.
        public var service: GATTService
        /// The characteristics discovered, in handle order.
        public var characteristics: [GATTCharacteristic]
        /// Whether ``characteristics`` are all the service has (a discovery of all of them ran).
        public var complete: Bool
        /// The descriptors discovered, all of a characteristic's, by its value handle (characteristics whose
        /// descriptors were not discovered have no entry). The Database Hash covers their handles and types.
        public var descriptors: [ATTHandle: [GATTDescriptor]]

        /// Creates a cached service.
        ///
        /// - Parameters:
        ///   - service: the service.
        ///   - characteristics: the characteristics discovered in it.
        ///   - complete: whether they are all it has.
        ///   - descriptors: the descriptors discovered, by characteristic value handle.
        public init(
            service: GATTService, characteristics: [GATTCharacteristic] = [], complete: Bool = false,
            descriptors: [ATTHandle: [GATTDescriptor]] = [:]
        ) {
            self.service = service
            self.characteristics = characteristics
            self.complete = complete
            self.descriptors = descriptors
        }
    }

    /// The services discovered, in handle order.
    public var services: [Service]
    /// Whether ``services`` are all the device has (a discovery of all of them ran).
    public var complete: Bool

    /// Creates a cached database.
    ///
    /// - Parameters:
    ///   - services: the services discovered, with their characteristics.
    ///   - complete: whether they are all the device has.
    public init(services: [Service], complete: Bool = false) {
        self.services = services.sorted { $0.service.handles.lowerBound < $1.service.handles.lowerBound }
        self.complete = complete
    }

    /// The number of characteristics cached, in all services.
    public var characteristicCount: Int { services.reduce(0) { $0 + $1.characteristics.count } }

    /// Checks that the handles make a database: every service's range starts at 1 or later and does not
    /// overlap another's; every characteristic lies in its service, its declaration before its value.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the field (`database.services[1].end`).
    public func validate() throws(AirlinkError) {
        var previousEnd: UInt16 = 0
        for (index, cached) in services.enumerated() {
            let field = "database.services[\(index)]"
            let (start, end) = (cached.service.handles.lowerBound.rawValue, cached.service.handles.upperBound.rawValue)
            guard start > previousEnd else {
                throw AirlinkError(
                    .invalidArgument,
                    "\(field).start \(start) is not after the previous service's end \(previousEnd); "
                        + "services take separate, increasing handle ranges from 1")
            }
            previousEnd = end
            for (number, characteristic) in cached.characteristics.enumerated() {
                let declaration = characteristic.declarationHandle.rawValue
                let value = characteristic.valueHandle.rawValue
                guard start < declaration, declaration < value, value <= end else {
                    throw AirlinkError(
                        .invalidArgument,
                        "\(field).characteristics[\(number)] has declaration \(declaration) and value \(value); both "
                            + "must lie after the service's start \(start) and up to its end \(end), the declaration "
                            + "first")
                }
                for descriptor in cached.descriptors[characteristic.valueHandle] ?? []
                where !(value < descriptor.handle.rawValue && descriptor.handle.rawValue <= end) {
                    throw AirlinkError(
                        .invalidArgument,
                        "\(field).characteristics[\(number)].descriptors has handle \(descriptor.handle.rawValue); a "
                            + "descriptor lies after its characteristic's value \(value) "
                            + "and up to the service's end \(end)"
                    )
                }
            }
        }
    }
}
