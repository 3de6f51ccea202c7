import AirlinkCore

extension BlueZTransport {
    /// The devices BlueZ lists under the adapter (heard in a scan, cached or paired), each with its
    /// address type: what an address typed without its type (`F4:77:E2:00:00:02` for
    /// `F4:77:E2:00:00:02/random`) is resolved against.
    package var knownDevices: [DeviceID] {
        state.withLock { state in
            state.tree.paths(under: adapterPath, with: BlueZInterface.device).compactMap { path in
                state.tree.properties(path, BlueZInterface.device).flatMap {
                    BlueZDevice(path: path, properties: $0).deviceID
                }
            }
        }
    }
}
