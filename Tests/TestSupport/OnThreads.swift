import Foundation

/// Runs `body(0)` … `body(count - 1)` each on its own OS thread and waits, without blocking the
/// caller's task, until all have returned. Real threads, so the bodies truly overlap whatever the
/// size of Swift concurrency's cooperative pool.
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            body(index)
            done.leave()
        }.start()
    }
    await withCheckedContinuation { continuation in
        done.notify(queue: .global()) { continuation.resume() }
    }
}
