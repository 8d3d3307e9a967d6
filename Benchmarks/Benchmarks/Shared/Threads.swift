// The contention workloads' threads, shared by every benchmark target (each links this file).

import Foundation

/// Runs `senders` threads at once, each calling `body` with its index, and waits for all of them
/// (thread start-up is part of the measurement, equally for every target).
func onThreads(_ senders: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<senders {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}
