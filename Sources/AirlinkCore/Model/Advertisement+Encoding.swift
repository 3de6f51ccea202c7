extension Advertisement {
    /// The most advertising data a legacy advertising PDU carries: 31 bytes (Core Spec Vol 6, Part B, 2.3.1).
    public static let legacyAdvertisingDataCapacity = 31

    /// The AD structures this advertisement encodes to, in their fixed order: Flags; the service UUID
    /// lists, 16-, 32- then 128-bit; the local name; TX Power Level; Appearance; service data and
    /// manufacturer data in array order; then ``otherStructures`` as they are.
    ///
    /// Each service UUID goes in the list of its shortest form, Complete or Incomplete as
    /// ``hasMoreServiceUUIDs`` says; a size with no UUIDs gets no list, except that ``hasMoreServiceUUIDs``
    /// with no UUIDs at all is an empty Incomplete List of 16-bit Service UUIDs, so that it survives a
    /// round trip.
    public var structures: [ADStructure] {
        var structures: [ADStructure] = []
        if let flags { structures.append(ADStructure(type: .flags, data: [flags.rawValue])) }
        let lists: [(size: Int, complete: ADType, incomplete: ADType)] = [
            (2, .complete16BitServiceUUIDs, .incomplete16BitServiceUUIDs),
            (4, .complete32BitServiceUUIDs, .incomplete32BitServiceUUIDs),
            (16, .complete128BitServiceUUIDs, .incomplete128BitServiceUUIDs),
        ]
        for list in lists {
            let uuids = serviceUUIDs.filter { $0.shortestByteCount == list.size }
            guard !uuids.isEmpty else { continue }
            let type = hasMoreServiceUUIDs ? list.incomplete : list.complete
            structures.append(ADStructure(type: type, data: uuids.flatMap(\.littleEndianBytes)))
        }
        if hasMoreServiceUUIDs && serviceUUIDs.isEmpty {
            structures.append(ADStructure(type: .incomplete16BitServiceUUIDs, data: []))
        }
        if let localName { structures.append(ADStructure(type: localName.adType, data: Array(localName.name.utf8))) }
        if let txPowerLevel {
            structures.append(ADStructure(type: .txPowerLevel, data: [UInt8(bitPattern: txPowerLevel)]))
        }
        if let appearance { structures.append(ADStructure(type: .appearance, data: littleEndian(appearance.rawValue))) }
        for entry in serviceData {
            structures.append(ADStructure(type: entry.adType, data: entry.uuid.littleEndianBytes + entry.data))
        }
        for entry in manufacturerData {
            structures.append(
                ADStructure(type: .manufacturerSpecificData, data: littleEndian(entry.companyID) + entry.data))
        }
        structures.append(contentsOf: otherStructures)
        return structures
    }

    /// Encodes the AD structures as advertising (or scan response) data, in the order ``structures`` gives.
    ///
    /// Follows Core Spec Vol 3, Part C, 11: each structure is a length byte, the AD type and its data.
    ///
    /// - Returns: the bytes, ``encodedByteCount`` of them; check ``fitsLegacyAdvertisingPDU`` before
    ///   sending them in a legacy advertising PDU.
    /// - Throws: ``AirlinkError/Code/invalidArgument`` if one structure has more than 254 bytes of data
    ///   (a local name longer than 254 UTF-8 bytes, say), naming the structure.
    public func advertisingData() throws(AirlinkError) -> [UInt8] {
        let structures = self.structures
        var bytes: [UInt8] = []
        bytes.reserveCapacity(structures.reduce(0) { $0 + $1.encodedByteCount })
        for structure in structures { try structure.encode(into: &bytes) }
        return bytes
    }

    /// The number of bytes ``advertisingData()`` returns.
    public var encodedByteCount: Int { structures.reduce(0) { $0 + $1.encodedByteCount } }

    /// Whether the encoded data fits the 31 bytes of a legacy advertising PDU (Core Spec Vol 6, Part B, 2.3.1);
    /// if not, move structures to the scan response or use extended advertising.
    public var fitsLegacyAdvertisingPDU: Bool { encodedByteCount <= Self.legacyAdvertisingDataCapacity }
}

/// Two bytes, least significant first.
private func littleEndian(_ value: UInt16) -> [UInt8] {
    [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
}
