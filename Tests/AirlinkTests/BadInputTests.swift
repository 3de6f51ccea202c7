import Airlink
import AirlinkCore
import AirlinkTestSupport
import Testing

/// Every kind of bad input is a typed `AirlinkError` whose message says what was wrong and what to
/// do, with the device's ATT error kept as the cause.
@Suite struct BadInputTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// Runs `body` against a connected thermostat's Thermostat service; returns its error.
    private func error(
        _ body: @escaping @Sendable (DeviceService) async throws(AirlinkError) -> Void
    ) async throws -> AirlinkError? {
        let (world, _, connection) = try await ServicesTests.connected()
        let service = connection.services.service(Thermostat.service)
        return try await world.sim.run {
            await airlinkError { () async throws(AirlinkError) in try await body(service) }
        }
    }

    @Test func anUnknownServiceIsNamedWithTheServicesTheDeviceHas() async throws {
        let (world, _, connection) = try await ServicesTests.connected()
        let error = try await world.sim.run {
            await airlinkError { () async throws(AirlinkError) in
                try await connection.services.service(.heartRate).read(.heartRateMeasurement)
            }
        }
        #expect(error?.code == .serviceNotFound)
        #expect(error?.message.contains("has no service 180D") == true)
        #expect(error?.message.contains("180F") == true)
        #expect(error?.context?.contains("read 2A37 in 180D") == true)
    }

    @Test func anUnknownCharacteristicIsNamedWithTheOnesTheServiceHas() async throws {
        let error = try await error { service throws(AirlinkError) in _ = try await service.read(.batteryLevel) }
        #expect(error?.code == .characteristicNotFound)
        #expect(error?.message.contains("has no characteristic 2A19") == true)
        #expect(error?.message.contains(Thermostat.unit.description) == true)
    }

    @Test func writingAReadOnlyCharacteristicIsNotSupported() async throws {
        let error = try await error { service throws(AirlinkError) in
            try await service.write([1], to: Thermostat.firmware)
        }
        #expect(error?.code == .operationNotSupported)
        #expect(error?.message.contains("cannot be written with response (its properties are read)") == true)
    }

    @Test func writingWithTheWrongTypeSaysWhichTypeWorks() async throws {
        let error = try await error { service throws(AirlinkError) in
            try await service.write([1], to: Thermostat.control)
        }
        #expect(error?.code == .operationNotSupported)
        #expect(error?.message.contains("write without response instead") == true)
    }

    @Test func readingAWriteOnlyCharacteristicIsNotSupported() async throws {
        let error = try await error { service throws(AirlinkError) in _ = try await service.read(Thermostat.control) }
        #expect(error?.code == .operationNotSupported)
    }

    @Test func aWriteTheDeviceRefusesKeepsTheATTErrorAndHandle() async throws {
        // Given a characteristic that declares write, but whose server refuses writes
        let error = try await error { service throws(AirlinkError) in
            try await service.write([0], to: Thermostat.locked)
        }
        // Then the device's ATT error is the cause, with the handle it concerned
        #expect(error?.code == .attribute)
        #expect(error?.attError == .writeNotPermitted)
        #expect(error?.cause == .att(.writeNotPermitted, handle: ATTHandle(0x1D)))
        #expect(error?.context == "write \(Thermostat.locked) in \(Thermostat.service) on C0:FF:EE:00:00:01")
    }

    @Test func anInjectedATTErrorIsKeptVerbatim() async throws {
        let (world, _, connection) = try await ServicesTests.connected()
        let injected = AirlinkError(
            .attribute, "read refused", cause: .att(.insufficientAuthentication, handle: ATTHandle(0x1C)))
        let error = try await world.sim.run {
            await world.radio.failNextRequest(Self.thermostat, with: injected)
            return await airlinkError { () async throws(AirlinkError) in
                try await connection.services.service(.battery).read(.batteryLevel)
            }
        }
        #expect(error?.attError == .insufficientAuthentication)
    }

    @Test func notificationsOnWhatCannotNotifyAreNotSupported() async throws {
        let error = try await error { service throws(AirlinkError) in
            try await service.enableNotifications(for: Thermostat.unit)
        }
        #expect(error?.code == .operationNotSupported)
        #expect(error?.message.contains("cannot notify") == true)
    }

    @Test func notifyOnAnIndicateOnlyCharacteristicSaysToIndicate() async throws {
        let error = try await error { service throws(AirlinkError) in
            try await service.setNotifications(.notify, for: Thermostat.alarm)
        }
        #expect(error?.code == .operationNotSupported)
        #expect(error?.message.contains("use indicate instead") == true)
        // And enableNotifications picks indications by itself
        let none = try await self.error { service throws(AirlinkError) in
            let mode = try await service.enableNotifications(for: Thermostat.alarm)
            if mode != .indicate { throw AirlinkError(.internalError, "chose \(mode)") }
        }
        #expect(none == nil)
    }

    @Test func aValueLongerThanAnAttributeHoldsIsRefused() async throws {
        let error = try await error { service throws(AirlinkError) in
            try await service.write([UInt8](repeating: 0, count: 513), to: Thermostat.temperature)
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("at most 512") == true)
    }

    @Test func descriptorsAreReadAndMissingOnesNamed() async throws {
        let (world, _, connection) = try await ServicesTests.connected()
        let service = connection.services.service(Thermostat.service)
        let description = try await world.sim.run {
            try await service.readDescriptor(.characteristicUserDescription, of: Thermostat.temperature)
        }
        #expect(String(decoding: description, as: UTF8.self) == "Temperature")
        let missing = try await world.sim.run {
            await airlinkError { () async throws(AirlinkError) in
                try await service.readDescriptor(.characteristicPresentationFormat, of: Thermostat.temperature)
            }
        }
        #expect(missing?.code == .descriptorNotFound)
        #expect(missing?.message.contains("it has 2902, 2901") == true)
        let cccd = try await world.sim.run {
            await airlinkError { () async throws(AirlinkError) in
                try await service.writeDescriptor(
                    [1, 0], to: .clientCharacteristicConfiguration, of: Thermostat.temperature)
            }
        }
        #expect(cccd?.code == .invalidArgument)
        #expect(cccd?.message.contains("setNotifications") == true)
    }

    @Test func operationsOnADisconnectedDeviceFailAtOnce() async throws {
        // Given a device never connected
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let connection = world.manager().connection(to: Self.thermostat)
        // When the app reads, writes, enables notifications and reads RSSI
        let errors = try await world.sim.run {
            let service = connection.services.service(.battery)
            return [
                await airlinkError { () async throws(AirlinkError) in try await service.read(.batteryLevel) },
                await airlinkError { () async throws(AirlinkError) in try await service.write([1], to: .batteryLevel) },
                await airlinkError { () async throws(AirlinkError) in
                    try await service.enableNotifications(for: .batteryLevel)
                },
                await airlinkError { () async throws(AirlinkError) in try await connection.readRSSI() },
                await airlinkError { () async throws(AirlinkError) in try await connection.services.discover() },
            ]
        }
        // Then each fails at once with notConnected, saying to connect first; nothing reached the transport
        #expect(errors.map { $0?.code } == Array(repeating: .notConnected, count: 5))
        for error in errors {
            #expect(error?.message.contains("connect first") == true, "\(String(describing: error))")
        }
        #expect(world.sim.now == .zero)
        #expect(await world.radio.requests.isEmpty)
    }
}
