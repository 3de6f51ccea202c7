import AirlinkSimulation
import AirlinkTestSupport
import Foundation

// Runs one of the scale workloads once at a given size and exits: a driver for
// `valgrind --tool=callgrind`, whose instruction counts do not depend on the machine's load (the
// benchmark binaries crash under valgrind in their malloc interposer). The cost per advertiser or
// per sensor is the difference between two sizes divided by the difference in size:
//
//   valgrind --tool=callgrind .build-bench/release/ScaleProfile scan 1000
//   valgrind --tool=callgrind .build-bench/release/ScaleProfile scan 2000
//
// Workloads: `scan N` (N fleet sensors added, then scanned with duplicates for one virtual second),
// `fleet N` (N sensors connected through the layers, then notifying at 10 Hz for one virtual second).
//
// `fleet-curve N` times the fleet's measured phase (ScaleBenchmarks' "Fleet" cases: notifying, not
// connecting) on the wall clock, seven times on a fleet built afresh each time, at sizes from N/20 to N,
// and prints the median per sensor at each: where the wall clock per sensor bends, against the fleet's
// memory (Docs/Performance.md, "The fleet's bend"). `memory-latency N` walks a random cycle through
// buffers of 1 MB to N MB, one dependent load at a time, and prints the time a load takes at each size:
// the machine's memory hierarchy, as the fleet's pointer-heavy state meets it. Both read the wall
// clock on purpose: they measure this machine, not a simulation.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let count = Int(arguments.last!), count >= 0 else {
    print("usage: ScaleProfile scan|fleet|fleet-curve|memory-latency COUNT")
    exit(64)
}
switch arguments.first! {
case "scan":
    let sim = Simulation(seed: 1, strict: false, tracing: false)
    for index in 0..<count { try sim.add(FleetWorkloads.sensor(index)) }
    print(try await FleetWorkloads.scan(sim, for: .seconds(1)))
case "fleet-curve":
    for sensors in [count / 20, count / 10, count / 5, count * 3 / 10, count / 2, count * 7 / 10, count] {
        var times: [Duration] = []
        for _ in 0..<7 {
            let fleet = try await FleetWorkloads.connectedFleet(sensors)
            let began = ContinuousClock.now
            let outcome = try await FleetWorkloads.notify(fleet, for: .seconds(1))
            times.append(began.duration(to: .now))
            precondition(outcome.received >= 9 * sensors && outcome.missed == 0, "values lost: \(outcome)")
        }
        let median = times.sorted()[times.count / 2]
        let perSensor = Double(median.components.attoseconds) / 1e12 + Double(median.components.seconds) * 1e6
        print("\(sensors) sensors: median \(median), \(Int(perSensor / Double(max(sensors, 1)))) µs a sensor")
    }
case "memory-latency":
    var megabytes = 1
    while megabytes <= count {
        let slots = megabytes << 17  // 8-byte slots
        // One cycle through every slot in a shuffled order (Sattolo's algorithm, a fixed seed).
        var next = Array(0..<slots)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in stride(from: slots - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            next.swapAt(index, Int((state >> 33) % UInt64(index)))
        }
        let loads = 20_000_000
        var slot = 0
        let began = ContinuousClock.now
        for _ in 0..<loads { slot = next[slot] }
        let took = began.duration(to: .now)
        let nanoseconds =
            (Double(took.components.seconds) * 1e9 + Double(took.components.attoseconds) / 1e9) / Double(loads)
        print("\(megabytes) MB: \((nanoseconds * 10).rounded() / 10) ns a load (\(slot))")
        megabytes *= 2
    }
case "fleet":
    let fleet = try await FleetWorkloads.connectedFleet(count)
    print(try await FleetWorkloads.notify(fleet, for: .seconds(1)))
default:
    print("unknown workload \(arguments.first!); use scan or fleet")
    exit(64)
}
