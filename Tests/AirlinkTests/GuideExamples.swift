import Airlink
import AirlinkCore

// The code of Docs/Guide.md, compiled and run by GuideTests. Keep the two in step.

/// Guide §1–2: a device manager, and a discovery of thermostats.
func guideDiscover(manager: DeviceManager) async throws -> DeviceID? {
    // §2: discover devices whose whole name matches a regular expression, for five seconds
    let discovery = try await manager.discover(named: "Thermo.*", timeout: .seconds(5))
    for await event in discovery.events {
        switch event {
        case .started: print("scanning")
        case .discovered(let device): print("found \(device.name ?? "?") at \(device.rssi ?? 0) dBm")
        case .stopped(let reason): print("stopped: \(reason)")
        }
    }
    return discovery.devices.first?.id  // in the order first seen, with the latest advertisement
}

/// Guide §3: connect, with a reconnection strategy.
func guideConnect(manager: DeviceManager, to device: DeviceID) async throws -> ConnectionManager {
    let connection = manager.connection(
        to: device, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
    do {
        try await connection.connect(timeout: .seconds(5))
    } catch {
        if error.code == .timeout { print("the thermostat did not answer: \(error.message)") }
        throw error
    }
    return connection
}

/// Guide §4: services, reads and writes.
func guideReadAndWrite(connection: ConnectionManager) async throws -> UInt8 {
    let services = try await connection.services.discover()  // all of them
    print(services.map(\.uuid))
    let battery = connection.services.service(.battery)  // the same object for the same UUID
    let level = try await battery.read(UInt8.self, from: .batteryLevel)
    let thermostat = connection.services.service(BluetoothUUID("68753A44-4D6F-1226-9C60-0050E4C00066")!)
    try await thermostat.write([0x10, 0x01], to: BluetoothUUID("68753A44-4D6F-1226-9C60-0050E4C00067")!)
    print("MTU \(connection.mtu ?? 0), RSSI \(try await connection.readRSSI()) dBm")
    return level
}

/// Guide §5: notifications, as an AsyncSequence and as a closure; returns the first value.
func guideNotifications(connection: ConnectionManager) async throws -> CharacteristicValue? {
    let battery = connection.services.service(.battery)
    try await battery.enableNotifications(for: .batteryLevel)
    let token = battery.addObserver(for: .batteryLevel) { value in
        print("battery now \(value.bytes[0]) %")
    }
    var first: CharacteristicValue?
    for await value in battery.values(of: .batteryLevel) {
        if value.missedBefore > 0 { print("missed \(value.missedBefore) values") }
        first = value
        break  // stop observing after the first
    }
    battery.removeObserver(token)
    return first
}

/// Guide §6: one stream of every layer's events, filtered.
func guideEvents(manager: DeviceManager, device: DeviceID) -> EventStream<AirlinkEvent> {
    manager.events { event in
        switch event {
        case .connection(device, .lost), .connection(device, .reconnected), .services(device, .notificationsRestored):
            true
        case .adapterStateChanged:
            true
        default:
            false
        }
    }
}
