import Airlink
import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkProfiles
import AirlinkTransportContract
import Synchronization
import Testing

@testable import AirlinkBlueZ

extension RealStackTests {
    /// Notifications through the real kernel and bluetoothd into the layers: a burst arrives whole and in order.
    ///
    /// The burst is sized under what Linux queues for bluetoothd: the kernel drops ATT PDUs that arrive while the ATT
    /// socket's receive buffer is full (`sock_queue_rcv_skb` fails, and a basic-mode L2CAP channel has no flow
    /// control), and bluetoothd with `-d` under TCG reads 16 to 48 a second; 1,000 at once lost a third to a half
    /// before bluetoothd read them (Docs/RealStack.md, "Counted at every stage").
    @Suite("Notifications on the real Linux stack")
    struct RealStackNotificationTests {
        @Test("a burst of 150 notifications reaches the layers, every value, in order")
        func burstArrivesWholeAndInOrder() async throws {
            // Given the thermostat connected through the layers, its temperature notifying and observed
            let world = try await RealBlueZContractWorld.fresh()
            let manager = DeviceManager(transport: try await world.makeTransport(), environment: .live())
            let discovery = try await manager.discover(timeout: .seconds(3))
            _ = await discovery.waitUntilStopped()
            let connection = manager.connection(to: world.thermostat)
            try await connection.connect(timeout: world.connectTimeout)
            let service = connection.services.service(.thermostatTemperatureService)
            let values = service.values(of: .thermostatTemperature)
            try await service.enableNotifications(for: .thermostatTemperature)

            // When the thermostat notifies 150 values at once (0, 1, … 149)
            let count = 150
            try await world.peripheralBursts(world.thermostat, valueHandle: ContractHandles.temperature, count: count)

            // Then the app sees all of them, in the order sent (the thermostat's own values, 2150 and up, left out)
            let received = Mutex<[Int]>([])
            let complete = await firstWithin(values, .seconds(60)) { value -> Bool? in
                guard value.bytes.count == 2 else { return nil }
                let number = Int(value.bytes[0]) | Int(value.bytes[1]) << 8
                guard number < count else { return nil }
                return received.withLock {
                    $0.append(number)
                    return $0.count == count ? true : nil
                }
            }
            let numbers = received.withLock { $0 }
            #expect(complete == true, "\(numbers.count) of \(count) values arrived within 60 s")
            let firstWrong = zip(numbers, 0..<count).first { $0 != $1 }
            #expect(
                firstWrong == nil, "value \(firstWrong?.1 ?? 0) is missing or out of order: \(firstWrong?.0 ?? 0) came")
            await connection.disconnect()
            manager.shutdown()
            await world.stop()
        }
    }
}
