extension Advertisement {
    /// Decodes advertising or scan response data (Core Spec Vol 3, Part C, 11; formats in the Core
    /// Specification Supplement, Part A).
    ///
    /// - A zero length byte ends the data early; it and any bytes after it are padding and are not read.
    /// - Structures of types Airlink does not model go to ``otherStructures``, in order.
    /// - Service UUID lists of all sizes are joined into ``serviceUUIDs``; ``hasMoreServiceUUIDs`` is set
    ///   if any list is incomplete.
    /// - A Flags structure's first octet is read; a Flags structure with no data means no flags set.
    /// - When a structure that should appear once appears again, the later one wins, except that a
    ///   shortened local name does not replace a complete one.
    ///
    /// - Parameters:
    ///   - bytes: the advertising or scan response data, up to 31 bytes for legacy advertising or longer
    ///     for extended advertising.
    ///   - isConnectable: whether the PDU that carried the data accepts connections.
    ///   - rssi: the received signal strength in dBm, if known.
    /// - Throws: ``AirlinkError/Code/malformedData``, with the offset of the fault in `bytes`: a length
    ///   running past the end, a UUID list or a UUID that does not fit its size, a field of the wrong
    ///   size, a name that is not UTF-8.
    public init(decoding bytes: [UInt8], isConnectable: Bool = true, rssi: Int8? = nil) throws(AirlinkError) {
        self.init(isConnectable: isConnectable, rssi: rssi)
        for (offset, structure) in try ADStructure.split(bytes) {
            try apply(structure, at: offset)
        }
    }

    /// Folds one decoded structure into the advertisement.
    private mutating func apply(_ structure: ADStructure, at offset: Int) throws(AirlinkError) {
        let data = structure.data
        let type = structure.type
        func requireCount(_ count: Int) throws(AirlinkError) {
            guard data.count == count else {
                throw ADStructure.malformed(
                    at: offset, "\(type) takes \(count) byte\(count == 1 ? "" : "s") of data, not \(data.count)")
            }
        }
        switch type {
        case .flags:
            flags = Flags(rawValue: data.first ?? 0)
        case .incomplete16BitServiceUUIDs, .complete16BitServiceUUIDs, .incomplete32BitServiceUUIDs,
            .complete32BitServiceUUIDs, .incomplete128BitServiceUUIDs, .complete128BitServiceUUIDs:
            let size = [2, 2, 4, 4, 16, 16][Int(type.rawValue) - 2]
            guard data.count % size == 0 else {
                throw ADStructure.malformed(
                    at: offset,
                    "\(type) has \(data.count) byte\(data.count == 1 ? "" : "s") of data, "
                        + "which is not a multiple of \(size)"
                )
            }
            for start in stride(from: 0, to: data.count, by: size) {
                serviceUUIDs.append(try! BluetoothUUID(littleEndian: data[start..<(start + size)]))
            }
            if type.rawValue % 2 == 0 { hasMoreServiceUUIDs = true }
        case .shortenedLocalName, .completeLocalName:
            let name = try decodeUTF8(data, at: offset + 2, type: type)
            let isComplete = type == .completeLocalName
            if isComplete || localName?.isComplete != true { localName = LocalName(name, isComplete: isComplete) }
        case .txPowerLevel:
            try requireCount(1)
            txPowerLevel = Int8(bitPattern: data[0])
        case .appearance:
            try requireCount(2)
            appearance = Appearance(UInt16(data[0]) | UInt16(data[1]) << 8)
        case .serviceData16BitUUID, .serviceData32BitUUID, .serviceData128BitUUID:
            let size = type == .serviceData16BitUUID ? 2 : type == .serviceData32BitUUID ? 4 : 16
            guard data.count >= size else {
                throw ADStructure.malformed(
                    at: offset, "\(type) needs \(size) bytes for its UUID but has \(data.count) bytes of data")
            }
            let uuid = try! BluetoothUUID(littleEndian: data[0..<size])
            serviceData.append(ServiceData(uuid: uuid, data: Array(data[size...])))
        case .manufacturerSpecificData:
            guard data.count >= 2 else {
                throw ADStructure.malformed(
                    at: offset, "\(type) needs 2 bytes for its company identifier but has \(data.count)")
            }
            let companyID = UInt16(data[0]) | UInt16(data[1]) << 8
            manufacturerData.append(ManufacturerData(companyID: companyID, data: Array(data[2...])))
        default:
            otherStructures.append(structure)
        }
    }
}

/// Decodes UTF-8, throwing with the offset of the first byte of an invalid or truncated sequence.
///
/// - Parameters:
///   - data: the bytes.
///   - start: the offset of `data[0]` in the advertising data, for the error message.
///   - type: the AD type, for the error message.
private func decodeUTF8(_ data: [UInt8], at start: Int, type: ADType) throws(AirlinkError) -> String {
    // Valid names (nearly all) in one pass; the scalar loop below only finds where invalid data goes wrong.
    if let name = String(validating: data, as: UTF8.self) { return name }
    var decoder = UTF8()
    var iterator = data.makeIterator()
    var scalars = String.UnicodeScalarView()
    var index = 0
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar):
            scalars.append(scalar)
            index += UTF8.width(scalar)
        case .emptyInput:
            return String(scalars)
        case .error:
            throw ADStructure.malformed(at: start + index, "\(type) is not valid UTF-8 from this byte on")
        }
    }
}
