import Foundation

/// Runs `body(0)` … `body(count - 1)` each on its own OS thread and waits, without blocking the
/// caller's task, until all have returned. Real threads, so the bodies truly overlap whatever the
/// size of Swift concurrency's cooperative pool.
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    let done = startThreads(count, body)
    await withCheckedContinuation { continuation in
        done.notify(queue: .global()) { continuation.resume() }
    }
}

/// Runs `body(0)` … `body(count - 1)` each on its own OS thread and blocks the caller until all
/// have returned.
///
/// Use it where `DispatchQueue.concurrentPerform` would be the obvious call: that one is free to
/// run the iterations one after another on the calling thread when the pool is busy, as it is
/// while the whole suite runs in parallel. A race whose workers wait on each other then never
/// happens, or the test reads a result that only an overlap can produce.
public func onThreadsBlocking(_ count: Int, _ body: (Int) -> Void) {
    withoutActuallyEscaping(body) { body in
        // The threads reach the closure through a slot emptied once all have returned: a thread
        // object may outlive its work for a moment, and the closure must not outlive this call.
        let slot = BodySlot(body)
        startThreads(count) { slot.body?($0) }.wait()
        slot.body = nil
    }
}

/// Starts one thread per index, each calling `body` with it; the group is left when all have
/// returned.
private func startThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            body(index)
            done.leave()
        }.start()
    }
    return done
}

private final class BodySlot: @unchecked Sendable {
    var body: ((Int) -> Void)?
    init(_ body: @escaping (Int) -> Void) { self.body = body }
}
