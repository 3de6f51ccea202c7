import AirlinkCore

extension BlueZTransport {
    /// The RSSI of a connected device: HCI Read RSSI where the kernel allows it, else the `RSSI`
    /// BlueZ last reported for the device.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/notConnected``;
    ///   ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` when neither source has a value (the message gives
    ///   HCI's reason and its fix).
    public func readRSSI(_ device: DeviceID) async throws(AirlinkError) -> Int {
        let context = "read RSSI of \(device)"
        let path = try devicePath(device)
        let known = try state.withLock { (state) throws(AirlinkError) -> Int? in
            try checkReady(state, path: path, device: device, context: context)
            return state.tree.properties(path, BlueZInterface.device)?["RSSI"]?.integer
        }
        guard let address = device.address else {
            throw AirlinkError(.deviceNotFound, "\(device) has no address", context: context)
        }
        do {
            return try configuration.hci.readRSSI(adapter: adapterName, address: address)
        } catch let hciError {
            if let known { return known }
            throw AirlinkError(
                .operationNotSupported,
                "cannot read the RSSI of \(device): \(hciError.message); and BlueZ reports no RSSI for it (it does "
                    + "while it receives advertisements)", cause: .underlying(hciError), context: context)
        }
    }

    /// The link's parameters: the ATT MTU BlueZ negotiated (from the characteristics' `MTU`, or 23).
    public func linkInfo(_ device: DeviceID) async throws(AirlinkError) -> LinkInfo {
        let context = "link info of \(device)"
        let path = try devicePath(device)
        return try state.withLock { (state) throws(AirlinkError) -> LinkInfo in
            try checkReady(state, path: path, device: device, context: context)
            return LinkInfo(mtu: mtu(of: path, in: state))
        }
    }
}
