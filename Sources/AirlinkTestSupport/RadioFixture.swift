import AirlinkCore

/// The verbs tests use to act on the air, whatever transport runs underneath.
///
/// `ScriptedTransport` implements them; the virtual radio can implement them too, so the same
/// tests run on it (see `TestWorld.make`). Faults are named for what happens on air.
package protocol RadioFixture: Sendable {
    /// The device sends one advertisement now (reported if a scan runs and admits it).
    func advertise(_ device: DeviceID) async
    /// The device advertises every `interval` until ``stopAdvertising(_:)``.
    func startAdvertising(_ device: DeviceID, every interval: Duration) async
    /// The device stops advertising.
    func stopAdvertising(_ device: DeviceID) async
    /// The device's advertisement changes (for example its RSSI).
    func setAdvertisement(_ device: DeviceID, _ advertisement: Advertisement) async
    /// The next `count` connection attempts to the device are refused.
    func failNextConnects(_ device: DeviceID, _ count: Int) async
    /// Whether the device answers connection attempts at all (not: they time out).
    func setAnswersConnects(_ device: DeviceID, _ answers: Bool) async
    /// The link to the device drops for `reason`.
    func dropLink(_ device: DeviceID, reason: DisconnectionReason) async
    /// The device notifies a value of a characteristic; returns whether it was sent (subscribed, and a value of at
    /// most 512 bytes, which the characteristic can hold).
    @discardableResult func notify(_ device: DeviceID, _ characteristic: BluetoothUUID, _ value: [UInt8]) async -> Bool
    /// The device notifies `count` values in a burst; returns how many were sent.
    @discardableResult func notifyBurst(
        _ device: DeviceID, _ characteristic: BluetoothUUID, count: Int, value: [UInt8]
    ) async -> Int
    /// The adapter is powered on or off.
    func setAdapterPower(_ on: Bool) async
    /// The device's GATT database is replaced (a firmware update); connected centrals get Service Changed.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if `definition` is not a database a server can
    ///   hold (the device keeps its old one).
    func replaceDatabase(_ device: DeviceID, with definition: GATTServerDefinition) async throws(AirlinkError)
    /// The device's ATT MTU after the next exchange.
    func setMTU(_ device: DeviceID, _ mtu: Int) async
    /// Every GATT request takes this long on air from now on.
    func setRequestLatency(_ latency: Duration) async
    /// The next GATT request to the device fails with this error.
    func failNextRequest(_ device: DeviceID, with error: AirlinkError) async
    /// The stored value of a characteristic.
    func value(of characteristic: BluetoothUUID, on device: DeviceID) async -> [UInt8]?
    /// What was asked of the transport, one line per request, in order.
    var requests: [String] { get async }
    /// The most GATT requests that were ever outstanding on one link at once.
    var maximumOutstandingRequests: Int { get async }
}
