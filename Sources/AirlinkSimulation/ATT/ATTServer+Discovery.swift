import AirlinkCore

extension ATTServer {
    /// ATT_FIND_INFORMATION_REQ: handles and types, all of the first entry's UUID size, as many as fit in
    /// ATT_MTU (Core Spec Vol 3, Part F, 3.4.3.1–3.4.3.2).
    func findInformation(_ start: ATTHandle, _ end: ATTHandle) -> [Action] {
        if let error = rangeError(.findInformationRequest, start, end) { return error }
        var entries: [ATTPDU.InformationEntry] = []
        var size = 2
        for attribute in database.attributes(in: start...end) {
            let isShort = attribute.type.uint16 != nil
            if let first = entries.first, (first.type.uint16 != nil) != isShort { break }
            let entrySize = isShort ? 4 : 18
            guard size + entrySize <= Int(mtu) else { break }
            size += entrySize
            entries.append(ATTPDU.InformationEntry(handle: attribute.handle, type: attribute.type))
        }
        if entries.isEmpty { return errorResponse(.findInformationRequest, start, .attributeNotFound) }
        return [.send(.findInformationResponse(entries))]
    }

    /// ATT_FIND_BY_TYPE_VALUE_REQ: attributes of a 16-bit type whose value equals the given one, with their
    /// group end handles (Vol 3, Part F, 3.4.3.3–3.4.3.4). Discovers primary services by UUID (Part G, 4.4.2).
    func findByTypeValue(_ start: ATTHandle, _ end: ATTHandle, _ type: UInt16, _ value: [UInt8]) -> [Action] {
        if let error = rangeError(.findByTypeValueRequest, start, end) { return error }
        let uuid = BluetoothUUID(type)
        var ranges: [ClosedRange<ATTHandle>] = []
        for attribute in database.attributes(in: start...end) where attribute.type == uuid {
            guard readError(attribute) == nil, Self.valuesMatch(currentValue(attribute), value, attribute) else {
                continue
            }
            guard 1 + 4 * (ranges.count + 1) <= Int(mtu) else { break }
            ranges.append(attribute.handle...(attribute.endGroupHandle ?? attribute.handle))
        }
        if ranges.isEmpty { return errorResponse(.findByTypeValueRequest, start, .attributeNotFound) }
        return [.send(.findByTypeValueResponse(ranges))]
    }

    /// Equal bytes, or for a service declaration the same UUID in another size.
    private static func valuesMatch(_ stored: [UInt8], _ wanted: [UInt8], _ attribute: GATTAttribute) -> Bool {
        if stored == wanted { return true }
        guard attribute.endGroupHandle != nil,
            let storedUUID = try? BluetoothUUID(littleEndian: stored),  // try?: a declaration's value is a UUID
            // try?: a value the client sent that is no UUID matches no service, which is the answer it gets
            let wantedUUID = try? BluetoothUUID(littleEndian: wanted)
        else { return false }
        return storedUUID == wantedUUID
    }

    /// ATT_READ_BY_TYPE_REQ: the values of attributes of a type, all as long as the first, each at most
    /// ATT_MTU − 4 and 253 bytes (Vol 3, Part F, 3.4.4.1–3.4.4.2). A first attribute that may not be read
    /// earns its error; a later one ends the list.
    func readByType(_ start: ATTHandle, _ end: ATTHandle, _ type: BluetoothUUID) -> [Action] {
        if let error = rangeError(.readByTypeRequest, start, end) { return error }
        var entries: [ATTPDU.AttributeData] = []
        var size = 2
        let limit = min(Int(mtu) - 4, 253)
        for attribute in database.attributes(in: start...end) where attribute.type == type {
            if let error = readError(attribute) {
                if entries.isEmpty { return errorResponse(.readByTypeRequest, attribute.handle, error) }
                break
            }
            let value = Array(currentValue(attribute).prefix(limit))
            if let first = entries.first, first.value.count != value.count { break }
            guard size + 2 + value.count <= Int(mtu) else { break }
            size += 2 + value.count
            entries.append(ATTPDU.AttributeData(handle: attribute.handle, value: value))
        }
        if entries.isEmpty { return errorResponse(.readByTypeRequest, start, .attributeNotFound) }
        return [.send(.readByTypeResponse(entries))]
    }

    /// ATT_READ_BY_GROUP_TYPE_REQ: service declarations of the given type with their End Group Handles, values
    /// all as long as the first, each at most ATT_MTU − 6 and 251 bytes (Vol 3, Part F, 3.4.4.9–3.4.4.10).
    /// Only 0x2800 and 0x2801 group; any other type earns Unsupported Group Type.
    func readByGroupType(_ start: ATTHandle, _ end: ATTHandle, _ type: BluetoothUUID) -> [Action] {
        if let error = rangeError(.readByGroupTypeRequest, start, end) { return error }
        guard type == .primaryServiceDeclaration || type == .secondaryServiceDeclaration else {
            return errorResponse(.readByGroupTypeRequest, start, .unsupportedGroupType)
        }
        var entries: [ATTPDU.GroupData] = []
        var size = 2
        let limit = min(Int(mtu) - 6, 251)
        for attribute in database.attributes(in: start...end) where attribute.type == type {
            guard let groupEnd = attribute.endGroupHandle else { continue }
            let value = Array(currentValue(attribute).prefix(limit))
            if let first = entries.first, first.value.count != value.count { break }
            guard size + 4 + value.count <= Int(mtu) else { break }
            size += 4 + value.count
            entries.append(ATTPDU.GroupData(handle: attribute.handle, endGroupHandle: groupEnd, value: value))
        }
        if entries.isEmpty { return errorResponse(.readByGroupTypeRequest, start, .attributeNotFound) }
        return [.send(.readByGroupTypeResponse(entries))]
    }
}
