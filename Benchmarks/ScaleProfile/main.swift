import AirlinkSimulation
import AirlinkTestSupport
import Foundation

// Runs one of the scale workloads (issue 17) once at a given size and exits: a driver for
// `valgrind --tool=callgrind`, whose instruction counts do not depend on the machine's load (the
// benchmark binaries crash under valgrind in their malloc interposer). The cost per advertiser or
// per sensor is the difference between two sizes divided by the difference in size:
//
//   valgrind --tool=callgrind .build-bench/release/ScaleProfile scan 1000
//   valgrind --tool=callgrind .build-bench/release/ScaleProfile scan 2000
//
// Workloads: `scan N` (N fleet sensors added, then scanned with duplicates for one virtual second),
// `fleet N` (N sensors connected through the layers, then notifying at 10 Hz for one virtual second).
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let count = Int(arguments.last!), count >= 0 else {
    print("usage: ScaleProfile scan|fleet COUNT")
    exit(64)
}
switch arguments.first! {
case "scan":
    let sim = Simulation(seed: 1, strict: false, tracing: false)
    for index in 0..<count { try sim.add(FleetWorkloads.sensor(index)) }
    print(try await FleetWorkloads.scan(sim, for: .seconds(1)))
case "fleet":
    let fleet = try await FleetWorkloads.connectedFleet(count)
    print(try await FleetWorkloads.notify(fleet, for: .seconds(1)))
default:
    print("unknown workload \(arguments.first!); use scan or fleet")
    exit(64)
}
