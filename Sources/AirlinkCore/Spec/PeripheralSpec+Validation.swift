extension PeripheralSpec {
    /// The advertising interval's bounds for legacy advertising, 20 ms to 10.24 s (Core Spec Vol 6,
    /// Part B, 4.4.2.2.1).
    public static let advertisingIntervalRange: ClosedRange<Duration> = .milliseconds(20) ... .milliseconds(10_240)

    /// The longest attribute value, 512 bytes (Core Spec Vol 3, Part F, 3.2.9).
    public static let maximumValueLength = 512

    /// Checks the spec as a real device would be constrained, naming the peripheral and the fault.
    ///
    /// Rejected: advertising data or a scan response over 31 bytes; an advertising interval outside 20 ms–10.24 s; a
    /// characteristic outside a service; two characteristics with one UUID in a service (behaviours
    /// address characteristics by UUID, so that would be ambiguous); a value over 512 bytes; an
    /// update period that is not positive; a timeline time before zero; an MTU outside 23–517; a data
    /// length outside 27–251; a position that is not finite; permissions that merge two minimum key
    /// sizes; a security maximum key size outside 7–16 or a passkey over six digits. A transport also
    /// lays out the database and reports what it refuses (a CCCD listed by hand, a redefined 0x1800
    /// service, ...).
    ///
    /// - Throws: ``AirlinkError/Code/invalidSpecification``.
    public func validate() throws(AirlinkError) {
        _ = try validatedAdvertisingData()
    }

    /// Checks the spec as ``validate()`` does and returns its advertising data, encoded once (empty
    /// if it does not advertise), for a transport that puts the peripheral on the air.
    ///
    /// - Throws: ``AirlinkError/Code/invalidSpecification``.
    package func validatedAdvertisingData() throws(AirlinkError) -> [UInt8] {
        func fault(_ text: String) -> AirlinkError {
            AirlinkError(.invalidSpecification, "peripheral \"\(name)\" (\(id)): \(text)")
        }
        let bytes = try advertisingBytes(fault)
        if let advertising {
            if bytes.count > Advertisement.legacyAdvertisingDataCapacity {
                throw fault(
                    "its advertising data is \(bytes.count) bytes, over the "
                        + "\(Advertisement.legacyAdvertisingDataCapacity) a legacy advertisement carries; "
                        + "shorten the local name or advertise fewer items")
            }
            let response: [UInt8]
            do { response = try advertising.scanResponseData() } catch {
                throw fault("its scan response cannot be encoded: \(error.message)")
            }
            if response.count > Advertisement.legacyAdvertisingDataCapacity {
                throw fault(
                    "its scan response is \(response.count) bytes, over the "
                        + "\(Advertisement.legacyAdvertisingDataCapacity) a legacy scan response carries; "
                        + "shorten the local name or put fewer items in it")
            }
            if !Self.advertisingIntervalRange.contains(advertising.interval) {
                throw fault("its advertising interval \(advertising.interval.text) lies outside 20 ms to 10.24 s")
            }
        }
        if let orphan = characteristicsWithoutService.first {
            throw fault("characteristic \(orphan.uuid) is declared outside any service; put it inside a Service { }")
        }
        for service in services {
            var seen: [BluetoothUUID] = []
            for characteristic in service.characteristics {
                if seen.contains(characteristic.uuid) {
                    throw fault(
                        "service \(service.uuid) declares characteristic \(characteristic.uuid) twice, so behaviours "
                            + "could not tell them apart; give each its own UUID")
                }
                seen.append(characteristic.uuid)
                let size = characteristic.initialValue.count
                if size > Self.maximumValueLength {
                    throw fault(
                        "characteristic \(characteristic.uuid) has a \(size)-byte \(characteristic.valueTypeName) "
                            + "value, over the \(Self.maximumValueLength) bytes an attribute holds")
                }
                let declared = [characteristic.permissions] + characteristic.descriptors.map(\.permissions)
                if declared.contains(where: {
                    $0.minimumKeySize.map { !AttributePermissions.keySizes.contains($0) } ?? false
                }) {
                    throw fault(
                        "characteristic \(characteristic.uuid) merges two minimum key sizes into one permission set; "
                            + "declare one")
                }
                for update in characteristic.updates where update.period <= .zero {
                    throw fault(
                        "characteristic \(characteristic.uuid) updates every \(update.period.text); "
                            + "use a positive period"
                    )
                }
            }
        }
        if let entry = timeline.first(where: { $0.time < .zero }) {
            throw fault("its timeline has \(entry.action.name) at \(entry.time.text), before the peripheral exists")
        }
        if !(23...517).contains(preferredMTU) { throw fault("its MTU \(preferredMTU) lies outside 23–517") }
        if !(27...251).contains(maximumDataLength) {
            throw fault("its data length \(maximumDataLength) lies outside 27–251 bytes")
        }
        if maximumConnections < 1 { throw fault("it must accept at least one connection") }
        if !AttributePermissions.keySizes.contains(security.features.maximumKeySize) {
            throw fault("its security's maximum key size \(security.features.maximumKeySize) lies outside 7–16 bytes")
        }
        if let passkey = security.passkey, passkey > 999_999 {
            throw fault("its passkey \(passkey) has more than six digits")
        }
        if !(position.x.isFinite && position.y.isFinite && position.z.isFinite) {
            throw fault("its position \(position) is not finite")
        }
        return bytes
    }

    private func advertisingBytes(_ fault: (String) -> AirlinkError) throws(AirlinkError) -> [UInt8] {
        guard let advertising else { return [] }
        do {
            return try advertising.advertisingData()
        } catch {
            throw fault("its advertising data cannot be encoded: \(error.message)")
        }
    }
}
