// A task awaits a continuation that another thread resumes, many thousands of times, the way
// Tributary's AsyncPublisherInner does it (Sources/Combine/Concurrency/AsyncPublisherInner.swift):
//
// * inside the `with…Continuation` closure the task stores the continuation in a field guarded by
//   a pthread mutex (`enqueue`), and returns;
// * the resuming side takes the continuation out under the same mutex and resumes it *after*
//   unlocking (`deliverIfWaiting`), so the resume often wins the race with the task's suspension
//   (the task is still between the end of the closure and `swift_continuation_await`).
//
// Nothing else orders the resuming thread and the resumed task: what the resumer wrote before
// `resume` (the delivered value, and in `object` mode a class instance and an unlocked field) is
// read by the task after the `await`. If the happens-before edge that the continuation provides
// were missing, those reads would be real data races.
//
// Usage: ContinuationRace [unsafe|checked] [thread|dispatch|late] [int|object] [buggy] [rounds] [consumers]
//   unsafe | checked   withUnsafeContinuation (what AsyncPublisherInner uses) or withCheckedContinuation
//   thread             one pthread spins over the mailboxes and resumes whatever is waiting
//                      (like a subject's producer delivering to many `values` consumers)
//   dispatch           the closure itself schedules the resume on DispatchQueue.global()
//   late               control: like `thread`, but the resumer sleeps 200 µs between taking the
//                      continuation and resuming it, so the task has always finished suspending
//                      and is restarted through the executor (swift_job_run)
//   int                the delivered value is Result<Int?, Never> (trivial: like `subject.values` of Int)
//   object             the delivered value is a class instance the resumer filled in, and the task
//                      also reads a plain field the resumer wrote without the lock
//   buggy              control (with `object`): the resumer also writes the unlocked field *after*
//                      `resume`, a genuine race the sanitizer must report
//   rounds             awaits per consumer task (default 20 000)
//   consumers          consumer tasks (default 4)

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

enum API: String { case unsafe, checked }
enum ResumerKind: String { case thread, dispatch, late }
enum PayloadKind: String { case int, object }

struct Options {
    var api = API.unsafe
    var resumer = ResumerKind.thread
    var payload = PayloadKind.int
    var rounds = 20_000
    var consumers = 4
    var buggy = false

    init(_ arguments: ArraySlice<String>) {
        var numbers: [Int] = []
        for argument in arguments {
            if let value = API(rawValue: argument) {
                api = value
            } else if let value = ResumerKind(rawValue: argument) {
                resumer = value
            } else if let value = PayloadKind(rawValue: argument) {
                payload = value
            } else if argument == "buggy" {
                buggy = true
            } else if let value = Int(argument), value > 0 {
                numbers.append(value)
            } else {
                fatalError("unknown argument \(argument)")
            }
        }
        if numbers.count > 0 { rounds = numbers[0] }
        if numbers.count > 1 { consumers = numbers[1] }
    }
}

let options = Options(CommandLine.arguments.dropFirst())

/// Filled in by the resuming thread before `resume`, read by the task after its `await`.
final class Box {
    var sequence: Int
    var words: [Int]
    init(sequence: Int) {
        self.sequence = sequence
        self.words = [sequence, sequence &* 2, sequence &* 3]
    }
}

/// The continuation waiting in a mailbox: either kind, resumed the same way.
enum Waiting<T> {
    case unsafe(UnsafeContinuation<T, Never>)
    case checked(CheckedContinuation<T, Never>)

    func resume(returning value: sending T) {
        switch self {
        case .unsafe(let continuation): continuation.resume(returning: value)
        case .checked(let continuation): continuation.resume(returning: value)
        }
    }
}

/// One consumer's slot, the counterpart of AsyncPublisherInner.State: the waiting continuation and
/// the round it asks for, guarded by a pthread mutex.
final class Mailbox<T>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Guarded by `mutex`.
    private var waiting: Waiting<T>?
    private var requested = 0
    private var finished = false
    /// Written by the resumer before `resume` and read by the task after its `await`, both
    /// without the mutex (only in `object` mode): ordered by the continuation alone.
    var lastSentUnlocked = 0
    let make: (Int) -> T

    init(make: @escaping (Int) -> T) {
        self.make = make
        mutex = .allocate(capacity: 1)
        precondition(pthread_mutex_init(mutex, nil) == 0)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Called from inside the `with…Continuation` closure, on the task.
    func enqueue(_ continuation: Waiting<T>, round: Int) {
        withLock {
            precondition(waiting == nil, "two waiters")
            waiting = continuation
            requested = round
        }
        if options.resumer == .dispatch {
            DispatchQueue.global().async { _ = self.deliverIfWaiting() }
        }
    }

    /// Called by the resumer: take the continuation under the lock, resume after unlocking.
    func deliverIfWaiting() -> Bool {
        let taken: (Waiting<T>, Int)? = withLock {
            guard let continuation = waiting else { return nil }
            waiting = nil
            return (continuation, requested)
        }
        guard let (continuation, round) = taken else { return false }
        if options.payload == .object { lastSentUnlocked = round }
        let value = make(round)
        if options.resumer == .late { usleep(200) }
        continuation.resume(returning: value)
        if options.buggy { lastSentUnlocked = round }  // genuine race with the task's read
        return true
    }

    func finish() { withLock { finished = true } }
    var isFinished: Bool { withLock { finished } }
}

/// The consumer: `rounds` awaits, each checking what the resumer wrote.
func consume<T>(_ mailbox: Mailbox<T>, check: (T, Int) -> Void) async {
    for round in 1...options.rounds {
        let value: T
        switch options.api {
        case .unsafe:
            value = await withUnsafeContinuation { (continuation: UnsafeContinuation<T, Never>) in
                mailbox.enqueue(.unsafe(continuation), round: round)
            }
        case .checked:
            value = await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
                mailbox.enqueue(.checked(continuation), round: round)
            }
        }
        check(value, round)
    }
    mailbox.finish()
}

/// Spins over the mailboxes, resuming whatever waits, until every consumer is done.
final class ProducerThread: @unchecked Sendable {
    let poll: [() -> Bool]
    let done: [() -> Bool]
    var thread = pthread_t()

    init(poll: [() -> Bool], done: [() -> Bool]) {
        self.poll = poll
        self.done = done
    }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            let producer = Unmanaged<ProducerThread>.fromOpaque(context!).takeRetainedValue()
            producer.run()
            return nil
        }, context)
        precondition(status == 0)
    }

    func run() {
        while true {
            var delivered = false
            for poll in poll where poll() { delivered = true }
            if !delivered {
                if done.allSatisfy({ $0() }) { return }
                sched_yield()
            }
        }
    }

    func join() { pthread_join(thread, nil) }
}

nonisolated func runInt() async {
    let mailboxes = (0..<options.consumers).map { _ in
        Mailbox<Result<Int?, Never>> { round in .success(round) }
    }
    let producer = ProducerThread(poll: mailboxes.map { m in { m.deliverIfWaiting() } },
                                  done: mailboxes.map { m in { m.isFinished } })
    if options.resumer != .dispatch { producer.start() }
    await withTaskGroup(of: Void.self) { group in
        for mailbox in mailboxes {
            group.addTask {
                await consume(mailbox) { value, round in
                    guard case .success(round) = value else { fatalError("round \(round): got \(value)") }
                }
            }
        }
    }
    if options.resumer != .dispatch { producer.join() }
}

nonisolated func runObject() async {
    let mailboxes = (0..<options.consumers).map { _ in Mailbox<Box> { round in Box(sequence: round) } }
    let producer = ProducerThread(poll: mailboxes.map { m in { m.deliverIfWaiting() } },
                                  done: mailboxes.map { m in { m.isFinished } })
    if options.resumer != .dispatch { producer.start() }
    await withTaskGroup(of: Void.self) { group in
        for mailbox in mailboxes {
            group.addTask {
                await consume(mailbox) { box, round in
                    guard box.sequence == round, box.words == [round, round &* 2, round &* 3],
                          mailbox.lastSentUnlocked == round
                    else { fatalError("round \(round): got \(box.sequence) \(mailbox.lastSentUnlocked)") }
                    box.sequence = -1  // the task now owns the box: a write after resumption
                }
            }
        }
    }
    if options.resumer != .dispatch { producer.join() }
}

print("ContinuationRace: \(options.api) \(options.resumer) \(options.payload)\(options.buggy ? " buggy" : ""), "
      + "\(options.rounds) rounds x \(options.consumers) consumers")
switch options.payload {
case .int: await runInt()
case .object: await runObject()
}
print("done: every value arrived intact")
