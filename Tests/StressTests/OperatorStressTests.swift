import Combine
import Foundation
import TestSupport
import Testing

/// Concurrent `send`, `request`, `cancel` and subscribe against the subjects and every operator
/// with shared state. Each round builds a fresh pipeline over `PassthroughSubject` sources and
/// starts, at the same moment on real threads: one thread per sender, two threads requesting
/// more for a subscriber with a small demand, one thread cancelling a subscriber mid-stream and
/// one thread subscribing a latecomer. After joining, the sources complete and the round checks
/// the contract (see ``ContractSubscriber``), that a cancelled subscriber got nothing more and no
/// completion, that the unlimited subscriber completed exactly once, and its value count.
@Suite("Operator stress")
struct OperatorStressTests {
    typealias Source = PassthroughSubject<Int, StressError>
    typealias Pipe = AnyPublisher<Int, StressError>

    /// What the unlimited subscriber (subscribed before anything was sent) must have received,
    /// given the number of values sent into each source.
    enum Expect {
        case exactly((_ perSource: [Int]) -> Int)
        case atMost((_ perSource: [Int]) -> Int)
    }

    static let valuesPerSender = 40
    static let markersPerSource = 3
    static let marker = -1_000_000

    func run(
        _ name: String,
        rounds base: Int = 1_200,
        sources sourceCount: Int = 1,
        senders: [Int] = [0, 0],
        asynchronous: Bool = false,
        connect: ((Pipe) -> Void)? = nil,
        expect: Expect,
        _ build: @escaping ([Source]) -> Pipe,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let c = Checker()
        let m = Self.valuesPerSender
        for round in 0..<Stress.rounds(base) {
            let sources = (0..<sourceCount).map { _ in Source() }
            let pipe = build(sources)
            let full = ContractSubscriber<Int, StressError>()
            let limited = ContractSubscriber<Int, StressError>(initial: .max(3))
            let victim = ContractSubscriber<Int, StressError>()
            let late = ContractSubscriber<Int, StressError>(initial: .max(5), perValue: .max(1))
            pipe.subscribe(full)
            pipe.subscribe(limited)
            pipe.subscribe(victim)
            let box = UncheckedBox((sources, pipe))
            var bodies: [@Sendable () -> Void] = []
            for (index, source) in senders.enumerated() {
                bodies.append {
                    let subject = box.value.0[source]
                    for i in 0..<m { subject.send(index * 10_000 + i) }
                }
            }
            for _ in 0..<2 {
                bodies.append { for _ in 0..<(m / 4) { limited.request(.max(1)) } }
            }
            bodies.append {
                for _ in 0..<(round % 7) { sched_yield() }
                victim.cancel()
            }
            bodies.append {
                box.value.1.subscribe(late)
                if round % 3 == 0 { late.cancel() }
            }
            guard Stress.concurrently(bodies, sourceLocation: sourceLocation) else { return }
            let victimCount = victim.sealAfterCancel()
            // Values sent after `cancel()` returned: a cancelled subscriber must never see them
            // (a value already in flight on a scheduler when cancel ran may still arrive; these
            // markers cannot be in flight). Any output they contribute to is negative.
            for source in sources { for _ in 0..<Self.markersPerSource { source.send(Self.marker) } }
            for source in sources { source.send(completion: .finished) }
            if asynchronous {
                guard Stress.eventually("\(name): completion", sourceLocation: sourceLocation, { !full.completions.isEmpty }) else { return }
                // Let the scheduler drain anything still queued for the others.
                Thread.sleep(forTimeInterval: 0.000_2)
            }
            var perSource = Array(repeating: 0, count: sourceCount)
            for source in senders { perSource[source] += m }
            for source in perSource.indices { perSource[source] += Self.markersPerSource }
            for (label, subscriber) in [("full", full), ("limited", limited), ("victim", victim), ("late", late)] {
                subscriber.expectClean(c, "\(name) round \(round) \(label)", sourceLocation: sourceLocation)
            }
            c.expect(full.completions.count == 1, "\(name) round \(round): completions \(full.completions.count)", sourceLocation: sourceLocation)
            c.expect(!victim.values.contains { $0 < 0 }, "\(name) round \(round): values sent after cancel were delivered", sourceLocation: sourceLocation)
            if !asynchronous {
                c.expect(victim.count == victimCount, "\(name) round \(round): values after cancel", sourceLocation: sourceLocation)
            }
            c.expect(victim.completions.isEmpty, "\(name) round \(round): completion after cancel", sourceLocation: sourceLocation)
            switch expect {
            case .exactly(let count):
                c.expect(full.count == count(perSource), "\(name) round \(round): \(full.count) values, expected \(count(perSource))", sourceLocation: sourceLocation)
            case .atMost(let count):
                c.expect(full.count <= count(perSource), "\(name) round \(round): \(full.count) values, at most \(count(perSource))", sourceLocation: sourceLocation)
            }
            c.expect(limited.count <= 3 + 2 * (m / 4), sourceLocation: sourceLocation)
            if c.failures > 0 { return }
        }
    }

    static func total(_ counts: [Int]) -> Int { counts.reduce(0, +) }

    @Test func passthroughSubject() {
        run("PassthroughSubject", senders: [0, 0, 0], expect: .exactly(Self.total)) { $0[0].eraseToAnyPublisher() }
    }

    @Test func currentValueSubject() {
        let c = Checker()
        let m = Self.valuesPerSender
        for round in 0..<Stress.rounds(1_200) {
            let subject = CurrentValueSubject<Int, StressError>(-1)
            let full = ContractSubscriber<Int, StressError>()
            let limited = ContractSubscriber<Int, StressError>(initial: .max(2))
            let victim = ContractSubscriber<Int, StressError>()
            subject.subscribe(full)
            subject.subscribe(limited)
            subject.subscribe(victim)
            let late = ContractSubscriber<Int, StressError>(initial: .max(1), perValue: .max(1))
            let box = UncheckedBox(subject)
            let ok = Stress.concurrently([
                { for i in 0..<m { box.value.send(i) } },
                { for i in 0..<m { box.value.value = 1_000 + i } },
                { for _ in 0..<m { _ = box.value.value } },
                { for _ in 0..<10 { limited.request(.max(1)) } },
                { victim.cancel() },
                { box.value.subscribe(late) },
            ])
            guard ok else { return }
            let sealed = victim.sealAfterCancel()
            subject.send(completion: .finished)
            for subscriber in [full, limited, victim, late] { subscriber.expectClean(c, "CurrentValueSubject round \(round)") }
            c.expect(full.count == 1 + 2 * m)
            c.expect(full.completions.count == 1)
            c.expect(victim.count == sealed && victim.completions.isEmpty)
            if c.failures > 0 { return }
        }
    }

    @Test func merge() {
        run("merge", sources: 3, senders: [0, 1, 2], expect: .exactly(Self.total)) { s in
            s[0].merge(with: s[1], s[2]).eraseToAnyPublisher()
        }
    }

    @Test func mergeMany() {
        run("MergeMany", sources: 3, senders: [0, 1, 2, 2], expect: .exactly(Self.total)) { s in
            Publishers.MergeMany(s).eraseToAnyPublisher()
        }
    }

    @Test func combineLatest() {
        run("combineLatest", sources: 2, senders: [0, 1], expect: .atMost(Self.total)) { s in
            s[0].combineLatest(s[1]) { $0 + $1 }.eraseToAnyPublisher()
        }
    }

    @Test func combineLatest3() {
        run("combineLatest3", sources: 3, senders: [0, 1, 2], expect: .atMost(Self.total)) { s in
            s[0].combineLatest(s[1], s[2]) { $0 + $1 + $2 }.eraseToAnyPublisher()
        }
    }

    @Test func zip() {
        run("zip", sources: 2, senders: [0, 1], expect: .exactly { $0.min()! }) { s in
            s[0].zip(s[1]) { $0 + $1 }.eraseToAnyPublisher()
        }
    }

    @Test func zip3() {
        run("zip3", sources: 3, senders: [0, 1, 2], expect: .exactly { $0.min()! }) { s in
            s[0].zip(s[1], s[2]) { $0 + $1 + $2 }.eraseToAnyPublisher()
        }
    }

    @Test func flatMap() {
        run("flatMap", senders: [0, 0], expect: .exactly { 2 * Self.total($0) }) { s in
            s[0].flatMap { [$0, $0].publisher.setFailureType(to: StressError.self) }.eraseToAnyPublisher()
        }
    }

    @Test func flatMapJust() {
        // Each value's inner `Just` is delivered without a subscription when nobody else delivers.
        run("flatMap over Just", senders: [0, 0], expect: .exactly(Self.total)) { s in
            s[0].flatMap { Just($0).setFailureType(to: StressError.self) }.eraseToAnyPublisher()
        }
    }

    @Test func flatMapInnerSubjects() {
        // Inner publishers that are themselves being sent into from the other thread.
        run("flatMap(maxPublishers:) over subjects", sources: 2, senders: [0, 1], expect: .atMost { _ in .max }) { s in
            let inner = s[1]
            return s[0].flatMap(maxPublishers: .max(3)) { value in
                inner.prefix(2).map { $0 + value }
            }.eraseToAnyPublisher()
        }
    }

    @Test func switchToLatest() {
        run("switchToLatest", senders: [0, 0], expect: .exactly(Self.total)) { s in
            s[0].map { Just($0).setFailureType(to: StressError.self) }.switchToLatest().eraseToAnyPublisher()
        }
    }

    @Test func switchToLatestSubjects() {
        run("switchToLatest over subjects", sources: 2, senders: [0, 1], expect: .atMost { _ in .max }) { s in
            let inner = s[1]
            return s[0].map { value in inner.map { $0 + value } }.switchToLatest().eraseToAnyPublisher()
        }
    }

    @Test func share() {
        run("share", senders: [0, 0], expect: .exactly(Self.total)) { $0[0].share().eraseToAnyPublisher() }
    }

    /// A subject fed through `subscribe(_:)` goes away while values flow into it: its last
    /// subscriber cancels on one thread while the upstream sends on another. The connection
    /// reaches the subject's internals strongly; the subject must still be released, and cancel
    /// its upstream, once nobody holds it.
    @Test func subjectGoneWhileItsConnectionSends() {
        let c = Checker()
        let m = Self.valuesPerSender
        for round in 0..<Stress.rounds(600) {
            let source = PassthroughSubject<Int, StressError>()
            let subscriber = ContractSubscriber<Int, StressError>()
            weak var weakSubject: PassthroughSubject<Int, StressError>?
            let connection: AnyCancellable
            do {
                let subject = PassthroughSubject<Int, StressError>()
                weakSubject = subject
                connection = source.subscribe(subject)
                subject.subscribe(subscriber)
            }
            let box = UncheckedBox(source)
            let ok = Stress.concurrently([
                { for i in 0..<m { box.value.send(i) } },
                { subscriber.cancel() },
            ])
            guard ok else { return }
            let sealed = subscriber.sealAfterCancel()
            c.expect(weakSubject == nil, "subject connection round \(round): the subject outlived its last subscriber")
            source.send(-1)
            source.send(completion: .finished)
            subscriber.expectClean(c, "subject connection round \(round)")
            c.expect(subscriber.count == sealed && subscriber.completions.isEmpty)
            withExtendedLifetime(connection) {}
            if c.failures > 0 { return }
        }
    }

    @Test func multicast() {
        run("multicast autoconnect", senders: [0, 0], expect: .exactly(Self.total)) { s in
            s[0].multicast { PassthroughSubject<Int, StressError>() }.autoconnect().eraseToAnyPublisher()
        }
    }

    @Test func buffer() {
        run("buffer", senders: [0, 0], expect: .exactly(Self.total)) { s in
            s[0].buffer(size: 10_000, prefetch: .byRequest, whenFull: .dropNewest).eraseToAnyPublisher()
        }
    }

    @Test func bufferKeepFull() {
        run("buffer keepFull", senders: [0, 0], expect: .exactly(Self.total)) { s in
            s[0].buffer(size: 10_000, prefetch: .keepFull, whenFull: .dropOldest).eraseToAnyPublisher()
        }
    }

    @Test func receiveOn() {
        run("receive(on:)", rounds: 800, senders: [0, 0], asynchronous: true, expect: .exactly(Self.total)) { s in
            s[0].receive(on: DispatchQueue(label: "stress.receiveOn")).eraseToAnyPublisher()
        }
    }

    @Test func debounce() {
        run("debounce", rounds: 500, senders: [0, 0], asynchronous: true, expect: .atMost(Self.total)) { s in
            s[0].debounce(for: .microseconds(20), scheduler: DispatchQueue(label: "stress.debounce")).eraseToAnyPublisher()
        }
    }

    @Test func throttleLatest() {
        run("throttle latest", rounds: 500, senders: [0, 0], asynchronous: true, expect: .atMost(Self.total)) { s in
            s[0].throttle(for: .microseconds(20), scheduler: DispatchQueue(label: "stress.throttle"), latest: true).eraseToAnyPublisher()
        }
    }

    @Test func throttleFirst() {
        run("throttle first", rounds: 500, senders: [0, 0], asynchronous: true, expect: .atMost(Self.total)) { s in
            s[0].throttle(for: .microseconds(20), scheduler: DispatchQueue(label: "stress.throttle"), latest: false).eraseToAnyPublisher()
        }
    }

    @Test func subscribeOn() {
        let c = Checker()
        let m = 200
        for round in 0..<Stress.rounds(800) {
            let queue = DispatchQueue(label: "stress.subscribeOn")
            let upstream = (0..<m).publisher.setFailureType(to: StressError.self).subscribe(on: queue)
            let full = ContractSubscriber<Int, StressError>()
            let limited = ContractSubscriber<Int, StressError>(initial: .max(2))
            let victim = ContractSubscriber<Int, StressError>(initial: .max(1), perValue: .max(1))
            let ok = Stress.concurrently([
                { upstream.subscribe(full) },
                { upstream.subscribe(limited); for _ in 0..<20 { limited.request(.max(1)) } },
                { upstream.subscribe(victim); for _ in 0..<(round % 5) { sched_yield() }; victim.cancel() },
            ])
            guard ok else { return }
            guard Stress.eventually("subscribe(on:) completion", { full.completions.count == 1 }) else { return }
            queue.sync {}
            let sealed = victim.sealAfterCancel()
            queue.sync {}
            for subscriber in [full, limited, victim] { subscriber.expectClean(c, "subscribe(on:) round \(round)") }
            c.expect(full.count == m)
            c.expect(limited.count <= 22)
            c.expect(victim.count == sealed)
            if c.failures > 0 { return }
        }
    }

    @Test func future() {
        let c = Checker()
        for round in 0..<Stress.rounds(3_000) {
            let promise = Locked<Future<Int, StressError>.Promise?>(nil)
            let future = Future<Int, StressError> { fulfil in promise.withLock { $0 = fulfil } }
            let fulfil = UncheckedBox(promise.current!)
            let subscribers = (0..<4).map { _ in ContractSubscriber<Int, StressError>() }
            let delayed = ContractSubscriber<Int, StressError>(initial: .none)
            let victim = ContractSubscriber<Int, StressError>()
            let box = UncheckedBox(future)
            let ok = Stress.concurrently([
                { fulfil.value(.success(1)) },
                { fulfil.value(.success(2)) },
                { fulfil.value(.failure(StressError())) },
                { box.value.subscribe(subscribers[0]); box.value.subscribe(subscribers[1]) },
                { box.value.subscribe(subscribers[2]); box.value.subscribe(delayed); delayed.request(.max(1)) },
                { box.value.subscribe(subscribers[3]); box.value.subscribe(victim); victim.cancel() },
            ])
            guard ok else { return }
            for subscriber in subscribers + [delayed, victim] { subscriber.expectClean(c, "Future round \(round)") }
            let outcomes = (subscribers + [delayed]).map { "\($0.values) \($0.completions)" }
            c.expect(Set(outcomes).count == 1, "Future round \(round): subscribers disagree \(outcomes)")
            for subscriber in subscribers + [delayed] {
                c.expect(subscriber.completions.count == 1, "Future round \(round)")
                c.expect(subscriber.count <= 1)
            }
            c.expect(victim.count <= 1)
            if c.failures > 0 { return }
        }
    }

    final class Model: ObservableObject, @unchecked Sendable {
        @Published var value = 0
    }

    @Test func published() {
        let c = Checker()
        let m = Self.valuesPerSender
        for round in 0..<Stress.rounds(1_200) {
            let model = Model()
            let full = ContractSubscriber<Int, Never>()
            let changes = Locked(0)
            let changeCancellable = model.objectWillChange.sink { _ in changes.withLock { $0 += 1 } }
            model.$value.subscribe(full)
            let victim = ContractSubscriber<Int, Never>()
            model.$value.subscribe(victim)
            let late = ContractSubscriber<Int, Never>(initial: .max(1), perValue: .max(1))
            let box = UncheckedBox(model)
            // `$value` is a `mutating get` (Apple's signature), so reading it is a write access to
            // the wrapper's storage: the threads share one `Published.Publisher` taken up front,
            // which is thread-safe. One writer: a class property is not itself thread-safe.
            let projected = UncheckedBox(model.$value)
            let ok = Stress.concurrently([
                { for i in 1...m { box.value.value = i } },
                { projected.value.subscribe(late); late.cancel() },
                { victim.cancel() },
                { for _ in 0..<10 { projected.value.sink { _ in }.cancel() } },
            ])
            guard ok else { return }
            let sealed = victim.sealAfterCancel()
            model.value = -1
            for subscriber in [full, victim, late] { subscriber.expectClean(c, "@Published round \(round)") }
            c.expect(full.values == Array(0...m) + [-1])
            c.expect(changes.current == m + 1)
            c.expect(victim.count == sealed)
            changeCancellable.cancel()
            if c.failures > 0 { return }
        }
    }

    /// A subscriber that arrives while another thread's set is being delivered gets the value
    /// current once that delivery has stored it: whatever the interleaving, every subscriber's
    /// last value is the property's final value. (A value read when the subscriber asked, before
    /// the delivery in flight stored its own, would leave it one value behind for good.)
    @Test func publishedLateSubscribersEndOnTheFinalValue() {
        let c = Checker()
        let m = Self.valuesPerSender
        for round in 0..<Stress.rounds(1_200) {
            let model = Model()
            let projected = UncheckedBox(model.$value)
            let box = UncheckedBox(model)
            let late = (0..<4).map { _ in ContractSubscriber<Int, Never>() }
            let ok = Stress.concurrently([
                { for i in 1...m { box.value.value = i } },
                { for subscriber in late { projected.value.subscribe(subscriber) } },
            ])
            guard ok else { return }
            for subscriber in late {
                subscriber.expectClean(c, "@Published late subscriber, round \(round)")
                c.expect(subscriber.values.last == m, "@Published round \(round): \(subscriber.values) ends before \(m)")
                c.expect(subscriber.values == subscriber.values.sorted(), "@Published round \(round): out of order")
            }
            c.expect(model.value == m)
            for subscriber in late { subscriber.cancel() }
            if c.failures > 0 { return }
        }
    }

    /// Two threads set the same property: every value reaches the subscriber once, a subscriber
    /// always reads the value the property held before the one it receives (`willSet` order: it
    /// was stored after the previous delivery, before this one), and the property ends on the
    /// value delivered last.
    @Test func publishedTwoWriters() {
        let c = Checker()
        let m = Self.valuesPerSender
        for round in 0..<Stress.rounds(1_200) {
            let model = Model()
            let box = UncheckedBox(model)
            let seen = Locked<[(received: Int, stored: Int)]>([])
            let cancellable = model.$value.sink { value in
                seen.withLock { $0.append((value, box.value.value)) }
            }
            let ok = Stress.concurrently([
                { for i in 1...m { box.value.value = i } },
                { for i in 1...m { box.value.value = -i } },
            ])
            guard ok else { return }
            let log = seen.current
            c.expect(log.count == 2 * m + 1, "@Published round \(round): \(log.count) deliveries")
            c.expect(Set(log.map(\.received)).count == 2 * m + 1, "@Published round \(round): a value twice")
            for (previous, entry) in Swift.zip(log, log.dropFirst()) {
                c.expect(entry.stored == previous.received, "@Published round \(round): read \(entry.stored) while receiving \(entry.received) after \(previous.received)")
            }
            c.expect(model.value == log.last?.received, "@Published round \(round): ends on \(model.value)")
            cancellable.cancel()
            if c.failures > 0 { return }
        }
    }
}
