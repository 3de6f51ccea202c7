import AirlinkCore

/// The GATT values of a device's objects, with handles derived from their paths (ADR 0003).
extension BlueZObjectTree {
    /// An attribute a handle names: a characteristic's value or a descriptor.
    package enum Attribute: Sendable, Hashable {
        /// A characteristic, addressed by its value handle.
        case characteristic(path: String, GATTCharacteristic)
        /// A descriptor.
        case descriptor(path: String, GATTDescriptor, characteristicPath: String)
    }

    /// The device's services in handle order; each range runs to the service's last attribute.
    package func services(ofDevice device: String) -> [(path: String, service: GATTService)] {
        let paths = paths(under: device, with: BlueZInterface.gattService).filter { isDirectChild($0, of: device) }
        var result: [(String, GATTService)] = []
        for path in paths {
            guard let start = BlueZPath.handle(of: path, prefix: "service"),
                let properties = properties(path, BlueZInterface.gattService),
                // try?: an object without a readable UUID is skipped, as one BlueZ has not finished exporting
                let uuid = properties["UUID"]?.string.flatMap({ try? BluetoothUUID(parsing: $0) })
            else { continue }
            var end = start
            for characteristic in characteristics(ofService: path) {
                end = max(end, characteristic.characteristic.valueHandle)
                for descriptor in descriptors(ofCharacteristic: characteristic.path) {
                    end = max(end, descriptor.descriptor.handle)
                }
            }
            let includes = (properties["Includes"]?.strings ?? []).compactMap {
                BlueZPath.handle(of: $0, prefix: "service")
            }
            result.append(
                (
                    path,
                    GATTService(
                        uuid: uuid, isPrimary: properties["Primary"]?.bool ?? true, handles: start...end,
                        includedServiceHandles: includes)
                ))
        }
        return result.sorted { $0.1.handles.lowerBound < $1.1.handles.lowerBound }
    }

    /// A service's characteristics in handle order.
    package func characteristics(ofService service: String) -> [(path: String, characteristic: GATTCharacteristic)] {
        paths(under: service, with: BlueZInterface.gattCharacteristic).filter { isDirectChild($0, of: service) }
            .compactMap { path in
                guard let declaration = BlueZPath.handle(of: path, prefix: "char"), declaration.rawValue < 0xFFFF,
                    let properties = properties(path, BlueZInterface.gattCharacteristic),
                    // try?: an object without a readable UUID is skipped, as one BlueZ has not finished exporting
                    let uuid = properties["UUID"]?.string.flatMap({ try? BluetoothUUID(parsing: $0) })
                else { return nil }
                let flags = properties["Flags"]?.strings ?? []
                return (
                    path,
                    GATTCharacteristic(
                        uuid: uuid, declarationHandle: declaration, valueHandle: ATTHandle(declaration.rawValue + 1),
                        properties: Self.properties(fromFlags: flags))
                )
            }.sorted { $0.1.declarationHandle < $1.1.declarationHandle }
    }

    /// A characteristic's descriptors in handle order.
    package func descriptors(ofCharacteristic characteristic: String) -> [(path: String, descriptor: GATTDescriptor)] {
        paths(under: characteristic, with: BlueZInterface.gattDescriptor).filter {
            isDirectChild($0, of: characteristic)
        }
        .compactMap { path in
            guard let handle = BlueZPath.handle(of: path, prefix: "desc"),
                let uuid = properties(path, BlueZInterface.gattDescriptor)?["UUID"]?.string.flatMap({
                    // try?: an object without a readable UUID is skipped, as one BlueZ has not finished exporting
                    try? BluetoothUUID(parsing: $0)
                })
            else { return nil }
            return (path, GATTDescriptor(uuid: uuid, handle: handle))
        }.sorted { $0.1.handle < $1.1.handle }
    }

    /// The characteristic (by value handle) or descriptor a handle names on a device.
    package mutating func attribute(_ handle: ATTHandle, ofDevice device: String) -> Attribute? {
        if let index = attributeIndex[device] { return index[handle] }
        var index: [ATTHandle: Attribute] = [:]
        for service in services(ofDevice: device) {
            for characteristic in characteristics(ofService: service.path) {
                index[characteristic.characteristic.valueHandle] = .characteristic(
                    path: characteristic.path, characteristic.characteristic)
                for descriptor in descriptors(ofCharacteristic: characteristic.path) {
                    index[descriptor.descriptor.handle] = .descriptor(
                        path: descriptor.path, descriptor.descriptor, characteristicPath: characteristic.path)
                }
            }
        }
        attributeIndex[device] = index
        return index[handle]
    }

    /// The characteristic whose object is at `path`, if it exists.
    package func characteristic(at path: String) -> GATTCharacteristic? {
        guard let parent = path.split(separator: "/").dropLast().joined(separator: "/") as String? else { return nil }
        return characteristics(ofService: "/" + parent).first { $0.path == path }?.characteristic
    }

    /// BlueZ's characteristic flags as the declaration's properties (Core Spec Vol 3, Part G, 3.3.1.1).
    package static func properties(fromFlags flags: [String]) -> CharacteristicProperties {
        var properties: CharacteristicProperties = []
        for flag in flags {
            switch flag {
            case "broadcast": properties.insert(.broadcast)
            case "read": properties.insert(.read)
            case "write-without-response": properties.insert(.writeWithoutResponse)
            case "write": properties.insert(.write)
            case "notify": properties.insert(.notify)
            case "indicate": properties.insert(.indicate)
            case "authenticated-signed-writes": properties.insert(.authenticatedSignedWrites)
            case "extended-properties", "reliable-write", "writable-auxiliaries": properties.insert(.extendedProperties)
            default: break
            }
        }
        return properties
    }

    private func isDirectChild(_ path: String, of parent: String) -> Bool {
        guard path.hasPrefix(parent + "/") else { return false }
        return !path.dropFirst(parent.count + 1).contains("/")
    }
}
