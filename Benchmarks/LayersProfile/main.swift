import AirlinkTestSupport
import Foundation

// Runs one of the layers-over-the-radio workloads a given number of times and exits: a driver for
// `valgrind --tool=callgrind`, whose instruction counts do not depend on the machine's load.
// The cost of one operation is the difference between two runs divided by the difference in counts
// (set-up cancels out):
//
//   valgrind --tool=callgrind .build-bench/release/LayersProfile reads 2000
//   valgrind --tool=callgrind .build-bench/release/LayersProfile reads 4000
//
// Workloads: `reads`, `notifications` (a multiple of 100), `cycles` (connect, discover all, read,
// disconnect).
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let count = Int(arguments.last!), count >= 0 else {
    print("usage: LayersProfile reads|notifications|cycles COUNT")
    exit(64)
}
switch arguments.first! {
case "reads":
    let world = try await RadioLayersWorkloads.world()
    print(try await RadioLayersWorkloads.reads(count, in: world))
case "notifications":
    let world = try await RadioLayersWorkloads.world(capacity: 1 << 20)
    try await RadioLayersWorkloads.subscribe(world)
    print(try await RadioLayersWorkloads.notifications(count, in: world))
case "cycles":
    let world = try await RadioLayersWorkloads.world(connected: false)
    try await world.sim.run { for _ in 0..<count { try await RadioLayersWorkloads.fullCycle(world) } }
    print(count)
default:
    print("unknown workload \(arguments.first!); use reads, notifications or cycles")
    exit(64)
}
