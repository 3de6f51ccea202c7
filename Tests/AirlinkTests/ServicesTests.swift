import Airlink
import AirlinkCore
import AirlinkTestSupport
import Testing

@Suite struct ServicesTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// A world with a connected thermostat.
    static func connected(
        reconnection: some ReconnectionStrategy = .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)),
        configuration: DeviceManager.Configuration = .init()
    ) async throws -> (TestWorld, DeviceManager, ConnectionManager) {
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let manager = world.manager(configuration)
        let connection = manager.connection(to: thermostat, reconnection: reconnection)
        try await world.sim.run { try await connection.connect(timeout: .seconds(1)) }
        return (world, manager, connection)
    }

    @Test func discoveredServicesReadAndWrite() async throws {
        let (world, _, connection) = try await Self.connected()
        // When the app discovers every service, reads the battery level and writes the temperature
        let (services, level, typed, written) = try await world.sim.run {
            let services = try await connection.services.discover()
            let battery = connection.services.service(.battery)
            let level = try await battery.read(.batteryLevel)
            let typed = try await battery.read(UInt8.self, from: .batteryLevel)
            let thermostat = connection.services.service(Thermostat.service)
            try await thermostat.write([0x10, 0x01], to: Thermostat.temperature)
            return (services, level, typed, try await thermostat.read(Thermostat.temperature))
        }
        // Then the managers are one per UUID, the same objects the services manager hands out
        #expect(services.map(\.uuid) == [.genericAccess, .genericAttribute, Thermostat.service, .battery])
        #expect(services[3] === connection.services.service(.battery))
        #expect(level == [87] && typed == 87)
        #expect(written == [0x10, 0x01])
        #expect(await world.radio.value(of: Thermostat.temperature, on: Self.thermostat) == [0x10, 0x01])
        #expect(world.events.contains("C0:FF:EE:00:00:01 servicesDiscovered 1800,1801,\(Thermostat.service),180F"))
    }

    @Test func aCharacteristicIsDiscoveredOnceThenCached() async throws {
        let (world, _, connection) = try await Self.connected()
        // When the temperature is read twice and written once
        try await world.sim.run {
            let service = connection.services.service(Thermostat.service)
            _ = try await service.read(Thermostat.temperature)
            try await service.write([1, 0], to: Thermostat.temperature)
            _ = try await service.read(Thermostat.temperature)
        }
        // Then the service was discovered once, only it, and its characteristics once, all of them (finding one by
        // UUID costs the requests of finding them all, and the next one is then cached)
        let requests = await world.radio.requests
        #expect(
            requests.filter { $0.hasPrefix("discover") } == [
                "discoverServices [\(Thermostat.service)]",
                "discoverCharacteristics \(Thermostat.service) all",
            ])
        #expect(
            requests.filter { $0.hasPrefix("read") || $0.hasPrefix("write") } == [
                "read 0x0010", "write 0x0010 2 bytes request", "read 0x0010",
            ])
    }

    @Test func theSameManagersWorkAfterAReconnectionEvenWhenHandlesMoved() async throws {
        // Given a service manager used before a loss
        let (world, _, connection) = try await Self.connected()
        let service = connection.services.service(Thermostat.service)
        let before = try await world.sim.run { try await service.read(Thermostat.temperature) }

        // When the link drops, the device's firmware changes (a new characteristic first shifts
        // every handle, and the temperature reads differently), and the link comes back
        var updated = TestPeripheral.thermostat().gatt
        updated.services[0].characteristics.insert(
            .init(BluetoothUUID(0x2A00 + 0x99), properties: [.read], value: [9]), at: 0)
        updated.services[0].characteristics[1].value = [0x2C, 0x01]
        try await world.sim.run {
            await world.radio.dropLink(Self.thermostat, reason: .supervisionTimeout)
            try await world.radio.replaceDatabase(Self.thermostat, with: updated)
        }
        try await world.sim.run(for: .seconds(3))

        // Then the same object reads the new value, at its new handle, after discovering again
        let after = try await world.sim.run { try await service.read(Thermostat.temperature) }
        #expect(before == [0xD2, 0x00] && after == [0x2C, 0x01])
        #expect(await world.radio.requests.suffix(1) == ["read 0x0012"])
    }

    @Test func notificationsReachStreamAndClosureObservers() async throws {
        let (world, _, connection) = try await Self.connected()
        let service = connection.services.service(.battery)
        let streamed = Recorder.recording(service.values(of: .batteryLevel), in: world.sim.environment)
        let observed = Recorder<[UInt8]>()
        // Given notifications enabled and a closure observer
        let token = try await world.sim.run {
            let mode = try await service.enableNotifications(for: .batteryLevel)
            #expect(mode == .notify)
            return service.addObserver(for: .batteryLevel) { observed.append($0.bytes) }
        }
        // When the device notifies three values, the observer is removed, and a fourth comes
        try await world.sim.run {
            for level: UInt8 in [86, 85, 84] { await world.radio.notify(Self.thermostat, .batteryLevel, [level]) }
        }
        try await world.sim.run {
            service.removeObserver(token)
            await world.radio.notify(Self.thermostat, .batteryLevel, [83])
        }
        try await world.sim.runUntilIdle()
        // Then the stream saw all four, in order; the closure the three before its removal
        #expect(streamed.values.map(\.bytes) == [[86], [85], [84], [83]])
        #expect(streamed.values.allSatisfy { $0.service == .battery && $0.missedBefore == 0 })
        #expect(observed.values == [[86], [85], [84]])
        #expect(service.notificationMode(of: .batteryLevel) == .notify)
    }

    @Test func notificationsAreRestoredAfterAReconnectionWithoutTheAppDoingAnything() async throws {
        // Given notifications enabled and observed
        let (world, _, connection) = try await Self.connected()
        let service = connection.services.service(.battery)
        let values = Recorder.recording(service.values(of: .batteryLevel), in: world.sim.environment)
        _ = try await world.sim.run { try await service.enableNotifications(for: .batteryLevel) }

        // When the link drops and comes back, then the device notifies
        try await world.sim.run { await world.radio.dropLink(Self.thermostat, reason: .supervisionTimeout) }
        try await world.sim.run(for: .seconds(3))
        let sent = try await world.sim.run { await world.radio.notify(Self.thermostat, .batteryLevel, [42]) }
        try await world.sim.runUntilIdle()

        // Then notifications were enabled again by Airlink, the app was told, and the value arrived
        #expect(sent)
        #expect(values.values.map(\.bytes) == [[42]])
        #expect(
            world.events.suffix(2) == [
                "C0:FF:EE:00:00:01 reconnected mtu=23",
                "C0:FF:EE:00:00:01 notificationsRestored 180F/2A19 notify",
            ])
    }

    @Test func aDatabaseChangeDropsTheCacheAndRestoresNotificationsAtTheNewHandles() async throws {
        // Given battery notifications enabled and observed
        let (world, _, connection) = try await Self.connected()
        let service = connection.services.service(.battery)
        let values = Recorder.recording(service.values(of: .batteryLevel), in: world.sim.environment)
        _ = try await world.sim.run { try await service.enableNotifications(for: .batteryLevel) }

        // When the device's database changes while connected (the battery level moves) and it notifies
        var updated = TestPeripheral.thermostat().gatt
        updated.services.insert(
            .init(.deviceInformation, characteristics: [.init(.manufacturerNameString, properties: [.read])]), at: 0)
        try await world.sim.run {
            try await world.radio.replaceDatabase(Self.thermostat, with: updated)
            try await world.sim.clock.sleep(for: .milliseconds(1))
            await world.radio.notify(Self.thermostat, .batteryLevel, [7])
        }
        try await world.sim.runUntilIdle()

        // Then Airlink reported the change, re-enabled the notifications and routed the value
        #expect(
            world.events.suffix(2) == [
                "C0:FF:EE:00:00:01 servicesChanged", "C0:FF:EE:00:00:01 notificationsRestored 180F/2A19 notify",
            ])
        #expect(values.values.map(\.bytes) == [[7]])
    }

    @Test func aSlowObserverOfOneServiceNeverDelaysAnother() async throws {
        // Given a closure observer of the thermostat's temperature that takes 1 s per value, and a
        // quick one of the battery level
        let (world, _, connection) = try await Self.connected()
        let slow = connection.services.service(Thermostat.service)
        let quick = connection.services.service(.battery)
        let slowTimes = Recorder<String>()
        let quickTimes = Recorder<String>()
        try await world.sim.run {
            try await slow.enableNotifications(for: Thermostat.temperature)
            try await quick.enableNotifications(for: .batteryLevel)
            slow.addObserver(for: Thermostat.temperature) { _ in
                try? await world.sim.clock.sleep(for: .seconds(1))
                slowTimes.append("\(world.sim.now)")
            }
            quick.addObserver(for: .batteryLevel) { _ in quickTimes.append("\(world.sim.now)") }
        }

        // When both notify three values at the same instant
        try await world.sim.run {
            for value: UInt8 in 1...3 {
                await world.radio.notify(Self.thermostat, Thermostat.temperature, [value, 0])
                await world.radio.notify(Self.thermostat, .batteryLevel, [value])
            }
        }
        try await world.sim.run(for: .seconds(5))

        // Then the quick observer got all three at once; the slow one took its own time
        #expect(quickTimes.values == ["0.030000", "0.030000", "0.030000"])
        #expect(slowTimes.values == ["1.030000", "2.030000", "3.030000"])
    }

    @Test func anObserverThatFallsBehindIsToldWhatItMissed() async throws {
        // Given buffers of 4 values and a stream nobody reads yet
        let (world, _, connection) = try await Self.connected(configuration: .init(notificationBufferCapacity: 4))
        let service = connection.services.service(.battery)
        let stream = service.values(of: .batteryLevel)
        _ = try await world.sim.run { try await service.enableNotifications(for: .batteryLevel) }

        // When the device notifies 10 values, then one more after the reader catches up
        _ = try await world.sim.run {
            await world.radio.notifyBurst(Self.thermostat, .batteryLevel, count: 10, value: [1])
        }
        let received = try await world.sim.run {
            var iterator = stream.makeAsyncIterator()
            var received: [CharacteristicValue] = []
            for _ in 0..<4 { received.append(await iterator.next()!) }
            await world.radio.notify(Self.thermostat, .batteryLevel, [2])
            received.append(await iterator.next()!)
            return received
        }

        // Then it received the first four, then the next value carrying the six it missed
        #expect(received.map(\.missedBefore) == [0, 0, 0, 0, 6])
        #expect(received.last?.bytes == [2])
        // And the overflow was announced once, not per dropped value
        #expect(
            world.events.filter { $0.contains("notificationsOverflowed") } == [
                "C0:FF:EE:00:00:01 notificationsOverflowed 180F/2A19"
            ])
    }

    @Test func requestsOfOneDeviceAreSerializedWhileCallersAreConcurrent() async throws {
        // Given requests that take 10 ms on air
        let (world, _, connection) = try await Self.connected()
        let service = connection.services.service(Thermostat.service)
        try await world.sim.run { await world.radio.setRequestLatency(.milliseconds(10)) }

        // When ten tasks read at once
        let values = try await world.sim.run {
            try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<10 {
                    group.addTask(executorPreference: world.sim.environment.executor) {
                        try await service.read(Thermostat.temperature)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }

        // Then all succeeded, one request at a time on the link (2 discoveries + 10 reads = 120 ms)
        #expect(values.count == 10 && values.allSatisfy { $0 == [0xD2, 0x00] })
        #expect(await world.radio.maximumOutstandingRequests == 1)
        #expect(world.sim.now.offset == .milliseconds(150))
    }

    @Test func rssiAndMTUAreReportedWithTheLongestWriteOfEachType() async throws {
        let (world, _, connection) = try await Self.connected()
        let rssi = try await world.sim.run { try await connection.readRSSI() }
        #expect(rssi == -60)
        #expect(connection.mtu == 23)
        #expect(try connection.maximumWriteLength(for: .withoutResponse) == 20)
        #expect(try connection.maximumWriteLength(for: .withResponse) == 512)
        try await world.sim.run { await connection.disconnect() }
        #expect(connection.mtu == nil)
        #expect(throws: AirlinkError.self) { try connection.maximumWriteLength(for: .withoutResponse) }
    }

    @Test func aWriteWithoutResponseLongerThanMTUMinus3IsRefusedBeforeTheTransport() async throws {
        let (world, _, connection) = try await Self.connected()
        let service = connection.services.service(Thermostat.service)
        // When 21 bytes are written without response at MTU 23
        let error = try await world.sim.run {
            await airlinkError { () async throws(AirlinkError) in
                try await service.write(
                    [UInt8](repeating: 1, count: 21), to: Thermostat.control, type: .withoutResponse)
            }
        }
        // Then it is refused with a message naming the limit, and nothing was written
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("at most 20 at MTU 23") == true)
        #expect(await world.radio.requests.filter { $0.hasPrefix("write") }.isEmpty)

        // When the MTU has grown meanwhile (an exchange after connecting)
        try await world.sim.run {
            await world.radio.setMTU(Self.thermostat, 247)
            try await service.write([UInt8](repeating: 1, count: 21), to: Thermostat.control, type: .withoutResponse)
        }
        // Then the same write goes through
        #expect(await world.radio.requests.last == "write 0x0016 21 bytes command")
    }
}
