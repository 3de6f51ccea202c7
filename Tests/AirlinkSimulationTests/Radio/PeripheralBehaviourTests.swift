import AirlinkCore
import AirlinkSimulation
import Testing

/// Behaviours and timelines of a spec, as the virtual radio runs them.
@Suite struct PeripheralBehaviourTests {
    static let service = BluetoothUUID(value: 0xC0DE_0001_0000_1000_8000_0080_5F9B_34FB)
    static let level = BluetoothUUID(value: 0xC0DE_0002_0000_1000_8000_0080_5F9B_34FB)
    static let reads = BluetoothUUID(value: 0xC0DE_0003_0000_1000_8000_0080_5F9B_34FB)

    /// A device whose `reads` counts the reads it served, and whose timeline sets, changes and resets.
    static func scripted() -> PeripheralSpec {
        PeripheralSpec(name: "Scripted", id: "C0:FF:EE:00:00:20") {
            Advertising { LocalName("Scripted") }
            State("served", 0)
            Service(service) {
                Characteristic(level, properties: [.read, .write, .notify], value: UInt8(1)).echoesWrites()
                Characteristic(reads, properties: [.read], value: UInt32(0))
                    .onRead { context in
                        context.state["served", default: 0] += 1
                        return UInt32(context.state["served", default: 0])
                    }
            }
            Timeline {
                At(.seconds(1), .setValue(UInt8(10), of: level))
                At(.seconds(2)) { context in
                    context.log("at two seconds, level \((try? context.value(of: level, as: UInt8.self)) ?? 0)")
                }
                At(.seconds(3), .reset)
                At(
                    .seconds(4),
                    .changeDatabase {
                        Service(.battery) { Characteristic(.batteryLevel, properties: .read, value: UInt8(5)) }
                    })
            }
        }
    }

    @Test func theTimelineRunsAtItsVirtualTimes() async throws {
        // Given the scripted peripheral
        let sim = Simulation(seed: 1, strict: true)
        let peripheral = try sim.add(Self.scripted())

        // When time passes
        try await sim.run(for: .milliseconds(1_500))
        let atOneAndAHalf = try peripheral.value(of: Self.level, as: UInt8.self)
        try await sim.run(for: .seconds(2))
        let afterReset = try peripheral.value(of: Self.level, as: UInt8.self)
        try await sim.run(for: .seconds(1))

        // Then the value was set at 1 s, logged at 2 s, reset at 3 s; at 4 s the database changed
        #expect(atOneAndAHalf == 10)
        #expect(afterReset == 1)
        #expect(sim.trace.events(in: "peripheral").contains("C0:FF:EE:00:00:20 at two seconds, level 10"))
        #expect(throws: AirlinkError.self) { try peripheral.value(of: Self.level, as: UInt8.self) }
        #expect(try peripheral.value(of: .batteryLevel, as: UInt8.self) == 5)
    }

    @Test func onReadComputesEachReadAndEchoedWritesAreNotified() async throws {
        // Given a connected central subscribed to `level`
        let sim = Simulation(seed: 1, strict: true)
        let peripheral = try sim.add(Self.scripted())
        let radio = sim.radio
        let events = recordEvents(of: radio, in: sim)
        let id = peripheral.id

        // When it reads `reads` twice and writes `level`
        let (first, second) = try await sim.run {
            _ = try await radio.connect(id, timeout: .seconds(5))
            let service = try await radio.discoverServices(id, uuids: [Self.service])[0]
            let characteristics = try await radio.discoverCharacteristics(id, of: service, uuids: nil)
            let level = characteristics.first { $0.uuid == Self.level }!
            let reads = characteristics.first { $0.uuid == Self.reads }!
            try await radio.setNotifications(id, characteristic: level, mode: .notify)
            let first = try await radio.read(id, handle: reads.valueHandle)
            let second = try await radio.read(id, handle: reads.valueHandle)
            try await radio.write(id, handle: level.valueHandle, value: [42], type: .withResponse)
            try await sim.clock.sleep(for: .milliseconds(100))
            return (first, second)
        }

        // Then each read was computed anew, and the written value came back as a notification
        #expect(first == UInt32(1).gattBytes)
        #expect(second == UInt32(2).gattBytes)
        #expect(peripheral.context.state["served", default: 0] == 2)
        #expect(events.values.contains(.notification(id, handle: ATTHandle(0x0010), value: [42])))
    }

    @Test func aConnectionAttemptThePeripheralNeverAnswersTimesOut() async throws {
        let sim = Simulation(seed: 1, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        peripheral.failNextConnects(1, with: .noAnswer)
        let radio = sim.radio
        let result = try await sim.run {
            await outcome { () async throws(AirlinkError) in
                try await radio.connect(peripheral.id, timeout: .seconds(2))
            }
        }
        if case .failure(let error) = result { #expect(error.code == .timeout) } else { Issue.record("connected") }
        #expect(sim.now == AirlinkInstant(offset: .seconds(2)))
    }

    @Test func aScheduledAdapterPowerOffHappensOnTime() async throws {
        let sim = Simulation(seed: 1, strict: true)
        let radio = sim.radio
        let events = recordEvents(of: radio, in: sim)
        radio.schedule(.powerOffAdapter, after: .seconds(3))
        try await sim.run(for: .seconds(2))
        #expect(await radio.adapterState == .poweredOn)
        try await sim.run(for: .seconds(2))
        #expect(await radio.adapterState == .poweredOff)
        #expect(events.values.map(\.name) == ["adapter(off)"])
        // The fault is a free-form `fault` record (no typed record): its time and text are matched.
        #expect(
            sim.trace.records.contains(
                TraceRecord(
                    time: AirlinkInstant(offset: .seconds(3)),
                    event: .line(category: "fault", text: "adapter powers off"))))
    }
}
