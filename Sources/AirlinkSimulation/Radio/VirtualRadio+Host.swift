import AirlinkCore

/// An advertisement as a controller's scanner reports it to its host: the PDU's bytes, not a decoded
/// ``/AirlinkCore/Advertisement``.
package struct HostAdvertisement: Sendable, Hashable {
    /// The advertiser.
    package var device: DeviceID
    /// The advertising data as sent (AD structures).
    package var data: [UInt8]
    /// The scan response data, when the scan is active and the advertiser has one.
    package var scanResponse: [UInt8]?
    /// Whether the advertising PDU accepts connections (ADV_IND rather than ADV_NONCONN_IND).
    package var isConnectable: Bool
    /// The strength it was heard at, in dBm.
    package var rssi: Int8

    /// Creates an advertisement report.
    package init(device: DeviceID, data: [UInt8], scanResponse: [UInt8]?, isConnectable: Bool, rssi: Int8) {
        self.device = device
        self.data = data
        self.scanResponse = scanResponse
        self.isConnectable = isConnectable
        self.rssi = rssi
    }
}

/// What a host behind an HCI controller hears from this central's air, raw. Both are called on the
/// simulation's driver thread, under the radio's lock: they must only hand the value on.
package struct HostBearer: Sendable {
    /// An advertisement (and its scan response) reached the antenna of a scanning central.
    package var advertisement: @Sendable (HostAdvertisement) -> Void
    /// An ATT PDU from a connected peripheral, as its bytes (the host answers indications itself).
    package var att: @Sendable (DeviceID, [UInt8]) -> Void

    /// Creates a bearer from its two deliveries.
    package init(
        advertisement: @escaping @Sendable (HostAdvertisement) -> Void,
        att: @escaping @Sendable (DeviceID, [UInt8]) -> Void
    ) {
        self.advertisement = advertisement
        self.att = att
    }
}

extension VirtualRadio {
    /// Puts a host in charge of this central: its links skip the radio's own setup (MTU exchange, Service
    /// Changed) and carry the host's ATT both ways, raw; advertisements reach the host as bytes too.
    package func attachHost(_ bearer: HostBearer) {
        world.lock.withLock { host = bearer }
    }

    /// Sends an ATT PDU of the host's to the connected `device`, as its bytes (malformed ones included: the
    /// peripheral's server answers them as a server does).
    ///
    /// - Returns: whether a link to `device` was up to carry it.
    @discardableResult
    package func sendHostATT(_ bytes: [UInt8], to device: DeviceID) -> Bool {
        world.lock.withLock {
            guard let link = links[device], link.isUp, !link.isClosed else { return false }
            link.sendToPeripheral(payload: .bytes(bytes))
            return true
        }
    }
}

extension VirtualRadio {
    /// The host behind this central encrypted its link to `device` (its controller checked the key): the
    /// peripheral's server now grants what needs `level`, as after ``pair(_:features:agent:)``.
    ///
    /// - Returns: whether a link to `device` was up.
    @discardableResult
    package func hostEncrypted(_ device: DeviceID, level: LinkSecurityLevel, keySize: Int) -> Bool {
        world.lock.withLock {
            guard let link = links[device], link.isUp, !link.isClosed else { return false }
            link.server.securityLevel = level
            link.server.encryptionKeySize = keySize
            world.record(
                .pairing(adapter: adapterIndex, device: device, step: .encryptedByHost(level, keySize: keySize)))
            return true
        }
    }
}

extension Link {
    /// A PDU reached a central that a host drives: traced as every PDU is, then handed to the host as it is.
    func deliverToHost(_ payload: LinkPayload, _ host: HostBearer) {
        assertConfined()
        assertConfined()
        // try?: a malformed PDU is traced as such and handed over as it is; the host's decoder gives the reason
        if let pdu = try? payload.decoded() {
            world.recordPDU(self, .toCentral, pdu, payload)
        } else {
            world.record("att", "\(central.tracePrefix)\(peripheral.idText) < malformed \(payload.count)-byte PDU")
        }
        host.att(peripheral.id, payload.bytes)
    }

    /// Queues a PDU from the central that travels as it is.
    func sendToPeripheral(payload: LinkPayload) {
        assertConfined()
        assertConfined()
        toPeripheral.append(Outgoing(payload: payload, remaining: payload.count + 4))
        ensurePump()
    }
}

extension RadioPeripheral {
    /// The scan response's bytes as sent, if the peripheral has one.
    var scanResponseData: [UInt8]? {
        guard let advertising = spec.advertising, advertising.scanResponse != nil else { return nil }
        return try? advertising.scanResponseData()  // try?: RadioPeripheral.init encoded it, or threw
    }
}
