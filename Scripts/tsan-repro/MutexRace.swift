// A minimal program that ThreadSanitizer reports as racy although it is correct: two threads change
// a dictionary only inside `Synchronization.Mutex.withLock`, as AirlinkBlueZ's D-Bus loop
// (`DBusEventLoop.calls`) and BlueZTransport (`state`) do. Run: Scripts/tsan-repro/run.
//
// Every access below is under the one lock, so there is no race. TSan nevertheless reports "Swift
// access race" or "data race" on the dictionary: on Linux a Mutex is a futex word, and when two
// threads contend for it the lock is handed over by futex system calls (inside the Swift runtime's
// Synchronization library, not built with TSan), which TSan does not intercept, so it sees no
// happens-before edge between the two critical sections. The same program with a pthread_mutex_t (which TSan intercepts) is clean:
// `run` builds and runs both.
import Foundation
import Synchronization

final class Shared: Sendable {
    let state = Mutex<[Int: Int]>([:])
}

let shared = Shared()
let usePthread = CommandLine.arguments.contains("--pthread")
nonisolated(unsafe) var pthreadState: [Int: Int] = [:]
nonisolated(unsafe) var pthreadLock = pthread_mutex_t()
pthread_mutex_init(&pthreadLock, nil)

func work(_ offset: Int) {
    for index in 0..<20_000 {
        if usePthread {
            pthread_mutex_lock(&pthreadLock)
            pthreadState[index % 64 + offset] = index
            _ = pthreadState.values.reduce(0, +)
            pthread_mutex_unlock(&pthreadLock)
        } else {
            shared.state.withLock { state in
                state[index % 64 + offset] = index
                _ = state.values.reduce(0, +)
            }
        }
    }
}

let group = DispatchGroup()
for offset in 0..<2 {
    group.enter()
    Thread {
        work(offset * 64)
        group.leave()
    }.start()
}
group.wait()
print(usePthread ? "pthread_mutex_t: done" : "Synchronization.Mutex: done")
