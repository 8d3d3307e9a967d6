// Scenarios: every entry of the operator table, built over the hand-driven upstream with fixed
// simple closures, times every short script over its event alphabet and a fixed set of seeded
// random longer scripts.

#if OPENCOMBINE
import OpenCombine
#else
import Combine
#endif

/// One step of a script.
enum Event: String, CaseIterable {
    /// `U` sends a fresh subscription to each of its subscribers.
    case sub
    /// `U` sends its next value.
    case val
    /// `U` finishes.
    case fin
    /// `U` fails with `e`.
    case err
    /// `D` requests `max(1)`, `none`, `unlimited` on the subscription it holds.
    case rq1, rq0, rqU
    /// `D` cancels the subscription it holds.
    case can
    /// The operator's upstream-facing subscriber is cancelled directly (`Cancellable`).
    case xcan
    /// The operator's upstream-facing subscriber is asked for `max(1)` directly (`Subscription`).
    case xrq
    /// The recording scheduler advances one tick.
    case adv
    /// `connect()` on the connectable publisher (the connection is kept).
    case con
    /// Only first in a script: an `_Introspection` recorder watches the whole scenario, from
    /// before the publisher is built and subscribed to until the script ends.
    case ins
}

let upstreamEvents: [Event] = [.sub, .val, .fin, .err, .rq1, .rq0, .rqU, .can, .xcan]
let timeEvents = upstreamEvents + [.adv]
let connectableEvents = upstreamEvents + [.con]
let sourceEvents: [Event] = [.rq1, .rq0, .rqU, .can]
let subjectEvents: [Event] = [.sub, .val, .fin, .err, .rq1, .rq0, .rqU, .can]
/// For the entries that check what a request made on the upstream-facing object does, before the
/// upstream's subscription (spec §10 rule 1) and after it.
let earlyRequestEvents: [Event] = [.xrq, .sub, .val, .fin, .rq1, .can, .xcan]

/// The state of one scenario.
final class Context {
    let u = HandDriven()
    let t = RecordingScheduler()
    var request: (Subscribers.Demand) -> Void = { _ in emit("D: no subscriber") }
    var cancel: () -> Void = { emit("D: no subscriber") }
    var connect: (() -> Cancellable)?
    var connections: [Cancellable] = []
    var onSub: (() -> Void)?
    var onVal: (() -> Void)?
    var onCompletion: ((Subscribers.Completion<TestError>) -> Void)?
    var keep: [Any] = []
    weak var downstream: AnyObject?
    var endState: () -> Void = {}
    var sent = 0

    /// Drops everything the scenario holds: the upstream's subscribers, the scheduler's pending
    /// actions, the connections, subjects and closures (which may capture the context).
    func tearDown() {
        Reflection.objects = { [] }
        u.attached = []
        t.items = []
        connections = []
        connect = nil
        keep = []
        onSub = nil
        onVal = nil
        onCompletion = nil
        request = { _ in }
        cancel = {}
        endState = {}
        // The hooks capture the context.
        downstreamOnValue = nil
        upstreamOnRequest = nil
    }

    func nextValue() -> Int {
        defer { sent += 1 }
        return upstreamValues[sent % upstreamValues.count]
    }

    /// Subscribes the tracking downstream `D` to `publisher`; the context keeps only a weak
    /// reference to it, so that its release is seen when the chain lets go of it.
    func attach<P: Publisher>(_ publisher: P) {
        let tracker = Tracker<P.Output, P.Failure>()
        downstream = tracker
        emit("subscribe")
        publisher.subscribe(tracker)
        request = { [weak tracker] demand in
            guard let tracker else { return emit("D: gone") }
            guard let subscription = tracker.subscription else { return emit("D: no subscription") }
            emit("D.request(\(fmt(demand)))")
            subscription.request(demand)
        }
        cancel = { [weak tracker] in
            guard let tracker else { return emit("D: gone") }
            guard let subscription = tracker.subscription else { return emit("D: no subscription") }
            emit("D.cancel()")
            subscription.cancel()
        }
        endState = { [weak tracker] in
            guard let subscription = tracker?.subscription else { return }
            emitShape("end: D's subscription", subscription)
        }
        Reflection.objects = { [weak tracker, weak self] in
            var objects: [(String, Any)] = []
            if let subscription = tracker?.subscription { objects.append(("D.sub", subscription)) }
            for target in self?.u.attached ?? [] { objects.append(("U.attach#\(target.index)", target.object)) }
            return objects
        }
    }

    func attachConnectable<P: ConnectablePublisher>(_ publisher: P) {
        attach(publisher)
        connect = { publisher.connect() }
    }

    func perform(_ event: Event) {
        emit("> \(event.rawValue)")
        switch event {
        case .sub: if let onSub { onSub() } else { u.sendSubscription() }
        case .val: if let onVal { onVal() } else { u.sendValue() }
        case .fin: if let onCompletion { onCompletion(.finished) } else { u.sendCompletion(.finished) }
        case .err: if let onCompletion { onCompletion(.failure(.upstream)) } else { u.sendCompletion(.failure(.upstream)) }
        case .rq1: request(.max(1))
        case .rq0: request(.none)
        case .rqU: request(.unlimited)
        case .can: cancel()
        case .xcan: u.cancelSubscribers()
        case .xrq: u.requestSubscribers()
        case .adv: t.advance()
        case .con:
            if let connect {
                connections.append(connect())
                emit("connected")
            } else {
                emit("not connectable")
            }
        case .ins: break
        }
        // One context for every event: what an object shows matters, not which event led there
        // (the behaviour lines say that), and the ledger stays short.
        Reflection.snapshot("step")
    }
}

struct Entry {
    let name: String
    let events: [Event]
    let build: (Context) -> Void
}

func op(_ name: String, _ events: [Event] = upstreamEvents, _ build: @escaping (Context) -> Void) -> Entry {
    Entry(name: name, events: events, build: build)
}

/// Throws on the repeated value 2, the upstream's second value.
func check(_ value: Int) throws -> Int {
    if value == 2 { throw TestError.thrown }
    return value
}

func isOdd(_ value: Int) -> Bool { value % 2 == 1 }
func tryIsOdd(_ value: Int) throws -> Bool { try check(value) % 2 == 1 }

func optionalPublisher(_ value: Int?) -> some Publisher<Int, Never> {
    #if OPENCOMBINE
    return value.ocombine.publisher
    #else
    return value.publisher
    #endif
}

func resultPublisher(_ value: Result<Int, TestError>) -> some Publisher<Int, TestError> {
    #if OPENCOMBINE
    return value.ocombine.publisher
    #else
    return value.publisher
    #endif
}

/// A top-level encoder and decoder that need no serialisation format: values become their
/// description, and the decoder fails on "2".
struct DescriptionEncoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> String { "\(value)" }
}

struct DescriptionDecoder: TopLevelDecoder {
    func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        guard text != "2", let value = Int(text) as? T else { throw TestError.thrown }
        return value
    }
}

/// The same entry with `D` answering `max(1)` to every value.
func answeringOne(_ entry: Entry) -> Entry {
    Entry(name: entry.name + " [D answers max(1)]", events: entry.events) { context in
        downstreamAnswer = .max(1)
        entry.build(context)
    }
}

final class Model: ObservableObject {
    @Published var value = 0
}

/// Every operator and publisher the harness covers, with its fixed closures.
let table: [Entry] = baseTable + answeringOneTable + earlyRequestTable

/// The entries whose upstream-facing object is itself a subscription, run again with requests
/// made on that object directly (`xrq`).
let earlyRequestTable: [Entry] = [
    "tryFilter", "tryCompactMap", "prefix(while:)", "tryPrefix(while:)", "removeDuplicates(by:)",
    "tryRemoveDuplicates(by:)", "handleEvents", "tryMap", "dropFirst", "reduce",
].map { name in
    let entry = baseTable.first { $0.name == name }!
    return Entry(name: entry.name + " [early requests]", events: earlyRequestEvents, build: entry.build)
}

/// The entries whose demand accounting is worth a second run with `D` asking for more from
/// inside `receive(_:)`.
let answeringOneTable: [Entry] = [
    "filter", "compactMap", "tryFilter", "removeDuplicates", "dropFirst", "drop(while:)", "prefix(2)",
    "output(in:)", "collect(2)", "replaceEmpty", "append", "prepend", "zip(Just)", "zip(U)",
    "flatMap(Just)", "flatMap(Optional)", "flatMap(max 1, Sequence)", "switchToLatest(Just)", "switchToLatest(Optional)", "catch(U)", "retry(1)",
    "flatMap(U, U; #2 sends inside D)", "switchToLatest(U, outer open; U sends inside D)", "measureInterval",
    "buffer(byRequest,dropOldest)", "buffer(keepFull,dropNewest)", "share", "multicast(subject:)",
    "debounce", "throttle(latest:true)", "delay", "receive(on:)", "Sequence", "Record",
    "PassthroughSubject", "CurrentValueSubject", "Published", "Future",
].map { name in answeringOne(baseTable.first { $0.name == name }!) }

let baseTable: [Entry] = [
    // Stateless and per-value operators.
    op("map") { c in c.attach(c.u.map { $0 * 10 }) },
    op("tryMap") { c in c.attach(c.u.tryMap { try check($0) * 10 }) },
    op("mapError") { c in c.attach(c.u.mapError { _ in TestError.thrown }) },
    op("map(keyPath)") { c in c.attach(c.u.map(\.description)) },
    op("map(keyPath,keyPath)") { c in c.attach(c.u.map(\.description, \.bitWidth)) },
    op("filter") { c in c.attach(c.u.filter(isOdd)) },
    op("tryFilter") { c in c.attach(c.u.tryFilter(tryIsOdd)) },
    op("compactMap") { c in c.attach(c.u.compactMap { isOdd($0) ? $0 : nil }) },
    op("tryCompactMap") { c in c.attach(c.u.tryCompactMap { try tryIsOdd($0) ? $0 : nil }) },
    op("scan") { c in c.attach(c.u.scan(0, +)) },
    op("tryScan") { c in c.attach(c.u.tryScan(0) { try $0 + check($1) }) },
    op("ignoreOutput") { c in c.attach(c.u.ignoreOutput()) },
    op("assertNoFailure") { c in c.attach(c.u.assertNoFailure()) },
    op("setFailureType") { c in c.attach(c.u.assertNoFailure().setFailureType(to: TestError.self)) },
    op("breakpoint") { c in c.attach(c.u.breakpoint(receiveOutput: { $0 == 99 })) },
    op("breakpointOnError") { c in c.attach(c.u.breakpointOnError()) },
    op("removeDuplicates") { c in c.attach(c.u.removeDuplicates()) },
    op("removeDuplicates(by:)") { c in c.attach(c.u.removeDuplicates { $0 == $1 }) },
    op("tryRemoveDuplicates(by:)") { c in c.attach(c.u.tryRemoveDuplicates { _, new in try check(new) == 0 }) },
    op("replaceNil") { c in c.attach(c.u.map { isOdd($0) ? $0 : nil }.replaceNil(with: 0)) },
    op("replaceError") { c in c.attach(c.u.replaceError(with: 0)) },
    op("replaceEmpty") { c in c.attach(c.u.replaceEmpty(with: 0)) },
    op("handleEvents") { c in
        c.attach(c.u.handleEvents(
            receiveSubscription: { emit("hook.subscription(\($0))") },
            receiveOutput: { emit("hook.output(\($0))") },
            receiveCompletion: { emit("hook.\(fmt($0))") },
            receiveCancel: { emit("hook.cancel") },
            receiveRequest: { emit("hook.request(\(fmt($0)))") }
        ))
    },
    op("print") { c in c.attach(c.u.print("p", to: TraceStream())) },
    op("eraseToAnyPublisher") { c in c.attach(c.u.eraseToAnyPublisher()) },
    op("encode") { c in c.attach(c.u.encode(encoder: DescriptionEncoder())) },
    op("decode") { c in c.attach(c.u.map(\.description).decode(type: Int.self, decoder: DescriptionDecoder())) },

    // Dropping and taking.
    op("dropFirst") { c in c.attach(c.u.dropFirst()) },
    op("dropFirst(2)") { c in c.attach(c.u.dropFirst(2)) },
    op("drop(while:)") { c in c.attach(c.u.drop(while: isOdd)) },
    op("tryDrop(while:)") { c in c.attach(c.u.tryDrop(while: tryIsOdd)) },
    op("prefix(2)") { c in c.attach(c.u.prefix(2)) },
    op("prefix(while:)") { c in c.attach(c.u.prefix(while: isOdd)) },
    op("tryPrefix(while:)") { c in c.attach(c.u.tryPrefix(while: tryIsOdd)) },
    op("output(at:)") { c in c.attach(c.u.output(at: 1)) },
    op("output(in:)") { c in c.attach(c.u.output(in: 1..<3)) },
    op("drop(untilOutputFrom:)") { c in c.attach(c.u.drop(untilOutputFrom: c.u)) },
    op("prefix(untilOutputFrom:)") { c in c.attach(c.u.prefix(untilOutputFrom: c.u)) },

    // Reduce-like operators.
    op("first") { c in c.attach(c.u.first()) },
    op("first(where:)") { c in c.attach(c.u.first(where: { $0 == 2 })) },
    op("tryFirst(where:)") { c in c.attach(c.u.tryFirst(where: { try check($0) == 3 })) },
    op("last") { c in c.attach(c.u.last()) },
    op("last(where:)") { c in c.attach(c.u.last(where: isOdd)) },
    op("tryLast(where:)") { c in c.attach(c.u.tryLast(where: tryIsOdd)) },
    op("reduce") { c in c.attach(c.u.reduce(0, +)) },
    op("tryReduce") { c in c.attach(c.u.tryReduce(0) { try $0 + check($1) }) },
    op("collect") { c in c.attach(c.u.collect()) },
    op("collect(2)") { c in c.attach(c.u.collect(2)) },
    op("count") { c in c.attach(c.u.count()) },
    op("min") { c in c.attach(c.u.min()) },
    op("max") { c in c.attach(c.u.max()) },
    op("min(by:)") { c in c.attach(c.u.min(by: <)) },
    op("max(by:)") { c in c.attach(c.u.max(by: <)) },
    op("tryMin(by:)") { c in c.attach(c.u.tryMin { try check($0) < $1 }) },
    op("tryMax(by:)") { c in c.attach(c.u.tryMax { try check($0) < $1 }) },
    op("contains") { c in c.attach(c.u.contains(2)) },
    op("contains(where:)") { c in c.attach(c.u.contains { $0 == 2 }) },
    op("tryContains(where:)") { c in c.attach(c.u.tryContains { try check($0) == 3 }) },
    op("allSatisfy") { c in c.attach(c.u.allSatisfy(isOdd)) },
    op("tryAllSatisfy") { c in c.attach(c.u.tryAllSatisfy(tryIsOdd)) },

    // Combining.
    op("append") { c in c.attach(c.u.append(7, 8)) },
    op("prepend") { c in c.attach(c.u.prepend(7, 8)) },
    op("append(Empty)") { c in c.attach(c.u.append(Empty())) },
    op("prepend(Empty)") { c in c.attach(c.u.prepend(Empty())) },
    op("append(U)") { c in c.attach(Empty<Int, TestError>().append(c.u)) },
    op("zip(Just)") { c in c.attach(c.u.zip(Just(5).setFailureType(to: TestError.self))) },
    op("zip(U)") { c in c.attach(c.u.zip(c.u)) },
    op("zip(U,U)") { c in c.attach(c.u.zip(c.u, c.u)) },
    op("zip(U,U,U)") { c in c.attach(c.u.zip(c.u, c.u, c.u)) },
    op("flatMap(Just)") { c in c.attach(c.u.flatMap { Just($0 * 10).setFailureType(to: TestError.self) }) },
    op("flatMap(max 1, Sequence)") { c in
        c.attach(c.u.flatMap(maxPublishers: .max(1)) { [$0, $0 * 10].publisher.setFailureType(to: TestError.self) })
    },
    op("flatMap(U)") { c in c.attach(Just(1).setFailureType(to: TestError.self).flatMap { _ in c.u }) },
    // A transform that finishes the upstream itself, before its inner publisher is subscribed.
    op("flatMap(Just, transform finishes U)") { c in
        c.attach(c.u.flatMap { value -> Publishers.SetFailureType<Just<Int>, TestError> in
            if value == 2 { c.u.sendCompletion(.finished) }
            return Just(value * 10).setFailureType(to: TestError.self)
        })
    },
    op("flatMap(Sequence, transform finishes U)") { c in
        c.attach(c.u.flatMap { value -> Publishers.SetFailureType<Publishers.Sequence<[Int], Never>, TestError> in
            if value == 2 { c.u.sendCompletion(.finished) }
            return [value * 10].publisher.setFailureType(to: TestError.self)
        })
    },
    op("flatMap(Optional)") { c in
        c.attach(c.u.flatMap { optionalPublisher(isOdd($0) ? $0 * 10 : nil).setFailureType(to: TestError.self) })
    },
    op("switchToLatest(Just)") { c in c.attach(c.u.map { Just($0 * 10).setFailureType(to: TestError.self) }.switchToLatest()) },
    op("switchToLatest(Optional)") { c in
        c.attach(c.u.map { optionalPublisher(isOdd($0) ? $0 * 10 : nil).setFailureType(to: TestError.self) }.switchToLatest())
    },
    op("switchToLatest(U)") { c in c.attach(Just(c.u).setFailureType(to: TestError.self).switchToLatest()) },
    // The outer stays open, so the inner's events after it finished meet a live operator.
    op("switchToLatest(U, outer open)") { c in
        let outer = CurrentValueSubject<HandDriven, TestError>(c.u)
        c.keep.append(outer)
        c.attach(outer.switchToLatest())
    },

    // Re-entrant deliveries: sends made from inside `D` on the delivering thread.
    // Two inners attached to `U`: a value of the first makes the second send from inside `D`.
    // Once per `val`: the first value `D` receives after it (whenever that is) does it.
    op("flatMap(U, U; #2 sends inside D)") { c in
        var armed = false
        c.onVal = {
            armed = true
            c.u.sendValue(to: [1])
        }
        downstreamOnValue = {
            guard armed, c.u.attached.count == 2 else { return }
            armed = false
            c.u.sendValue(to: [2])
        }
        c.attach([1, 2].publisher.setFailureType(to: TestError.self).flatMap { _ in c.u })
    },
    // The current inner sends again from inside `D`, once per `val`.
    op("switchToLatest(U, outer open; U sends inside D)") { c in
        let outer = CurrentValueSubject<HandDriven, TestError>(c.u)
        c.keep.append(outer)
        var armed = false
        c.onVal = {
            armed = true
            c.u.sendValue()
        }
        downstreamOnValue = {
            guard armed else { return }
            armed = false
            c.u.sendValue()
        }
        c.attach(outer.switchToLatest())
    },
    // `maxPublishers: .max(1)` over `U`, its inners `V`: each `val` makes `V` subscribe and
    // finish; asked for one more publisher, `U`'s subscription makes `V` finish again, twice.
    op("flatMap(max 1, V; V finishes again when U is asked)") { c in
        let v = HandDriven(name: "V")
        c.keep.append(v)
        var repeats = 0
        upstreamOnRequest = { name, _ in
            guard name.hasPrefix("S"), v.attached.count > 0, repeats < 2 else { return }
            repeats += 1
            v.sendCompletion(.finished)
        }
        c.onVal = {
            c.u.sendValue()
            v.sendSubscription()
            v.sendCompletion(.finished)
        }
        c.attach(c.u.flatMap(maxPublishers: .max(1)) { _ in v })
    },

    // Errors.
    op("catch(Just)") { c in c.attach(c.u.catch { _ in Just(9).setFailureType(to: TestError.self) }) },
    op("catch(U)") { c in c.attach(c.u.catch { _ in c.u }) },
    op("tryCatch") { c in c.attach(c.u.tryCatch { _ -> Just<Int> in throw TestError.thrown }) },
    op("retry(1)") { c in c.attach(c.u.retry(1)) },

    // Buffering and sharing.
    op("buffer(byRequest,dropOldest)") { c in c.attach(c.u.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest)) },
    op("buffer(keepFull,dropNewest)") { c in c.attach(c.u.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest)) },
    op("buffer(keepFull,customError)") { c in
        c.attach(c.u.buffer(size: 1, prefetch: .keepFull, whenFull: .customError { TestError.thrown }))
    },
    op("share") { c in c.attach(c.u.share()) },
    op("multicast(subject:)", connectableEvents) { c in c.attachConnectable(c.u.multicast(subject: PassthroughSubject())) },
    op("multicast(_:)", connectableEvents) { c in c.attachConnectable(c.u.multicast { CurrentValueSubject(0) }) },
    op("makeConnectable", connectableEvents) { c in c.attachConnectable(c.u.assertNoFailure().makeConnectable()) },
    op("autoconnect") { c in c.attach(c.u.multicast(subject: PassthroughSubject()).autoconnect()) },

    // Time, on the recording scheduler.
    op("debounce", timeEvents) { c in c.attach(c.u.debounce(for: 2, scheduler: c.t)) },
    op("throttle(latest:false)", timeEvents) { c in c.attach(c.u.throttle(for: 2, scheduler: c.t, latest: false)) },
    op("throttle(latest:true)", timeEvents) { c in c.attach(c.u.throttle(for: 2, scheduler: c.t, latest: true)) },
    op("delay", timeEvents) { c in c.attach(c.u.delay(for: 1, scheduler: c.t)) },
    op("timeout", timeEvents) { c in c.attach(c.u.timeout(2, scheduler: c.t)) },
    op("timeout(customError:)", timeEvents) { c in c.attach(c.u.timeout(2, scheduler: c.t, customError: { .timedOut })) },
    op("measureInterval", timeEvents) { c in c.attach(c.u.measureInterval(using: c.t).map(\.ticks)) },
    op("receive(on:)", timeEvents) { c in c.attach(c.u.receive(on: c.t)) },
    op("subscribe(on:)", timeEvents) { c in c.attach(c.u.subscribe(on: c.t)) },
    op("receive(on: Immediate)") { c in c.attach(c.u.receive(on: ImmediateScheduler.shared)) },
    op("subscribe(on: Immediate)") { c in c.attach(c.u.subscribe(on: ImmediateScheduler.shared)) },
    op("delay(Immediate)") { c in c.attach(c.u.delay(for: .zero, scheduler: ImmediateScheduler.shared)) },

    // Publishers without an upstream.
    op("Just", sourceEvents) { c in c.attach(Just(1)) },
    op("Empty", sourceEvents) { c in c.attach(Empty<Int, Never>()) },
    op("Empty(never)", sourceEvents) { c in c.attach(Empty<Int, Never>(completeImmediately: false)) },
    op("Fail", sourceEvents) { c in c.attach(Fail<Int, TestError>(error: .upstream)) },
    op("Sequence", sourceEvents) { c in c.attach([1, 2, 3].publisher) },
    op("Sequence(empty)", sourceEvents) { c in c.attach([Int]().publisher) },
    op("Optional(some)", sourceEvents) { c in c.attach(optionalPublisher(1)) },
    op("Optional(none)", sourceEvents) { c in c.attach(optionalPublisher(nil)) },
    op("Result(success)", sourceEvents) { c in c.attach(resultPublisher(.success(1))) },
    op("Result(failure)", sourceEvents) { c in c.attach(resultPublisher(.failure(.upstream))) },
    op("Record", sourceEvents) { c in c.attach(Record<Int, TestError>(output: [1, 2], completion: .finished)) },
    op("Record(failure)", sourceEvents) { c in c.attach(Record<Int, TestError>(output: [1], completion: .failure(.upstream))) },
    op("Deferred", sourceEvents) { c in c.attach(Deferred { Just(1) }) },
    op("Future", [.val, .err] + sourceEvents) { c in
        var promise: ((Result<Int, TestError>) -> Void)?
        let future = Future<Int, TestError> { promise = $0 }
        c.keep.append(future)
        c.onVal = { promise?(.success(c.nextValue())) }
        c.onCompletion = { completion in
            if case .failure(let error) = completion { promise?(.failure(error)) }
        }
        c.attach(future)
    },

    // Subjects and @Published.
    op("PassthroughSubject", subjectEvents) { c in
        let subject = PassthroughSubject<Int, TestError>()
        c.keep.append(subject)
        c.onSub = { subject.send(subscription: RecordingSubscription(name: "S\(c.u.subscriptions + 1)")); c.u.subscriptions += 1 }
        c.onVal = { subject.send(c.nextValue()) }
        c.onCompletion = { subject.send(completion: $0) }
        c.attach(subject)
    },
    op("CurrentValueSubject", subjectEvents) { c in
        let subject = CurrentValueSubject<Int, TestError>(0)
        c.keep.append(subject)
        c.onSub = { subject.send(subscription: RecordingSubscription(name: "S\(c.u.subscriptions + 1)")); c.u.subscriptions += 1 }
        c.onVal = { subject.send(c.nextValue()) }
        c.onCompletion = { subject.send(completion: $0) }
        c.attach(subject)
    },
    op("Published", [.val] + sourceEvents) { c in
        let model = Model()
        c.keep.append(model)
        c.onVal = { model.value = c.nextValue() }
        c.attach(model.$value)
    },
    op("objectWillChange", [.val] + sourceEvents) { c in
        let model = Model()
        c.keep.append(model)
        c.onVal = { model.value = c.nextValue() }
        c.attach(model.objectWillChange)
    },

    // The two built-in subscribers, at the end of the hand-driven upstream.
    op("sink") { c in
        let cancellable = c.u.sink(receiveCompletion: { emit("sink.\(fmt($0))") }, receiveValue: { emit("sink.value(\($0))") })
        c.cancel = { emit("AnyCancellable.cancel()"); cancellable.cancel() }
        c.keep.append(cancellable)
    },
    op("assign") { c in
        final class Target { var value = 0 { didSet { emit("assign.value = \(value)") } } }
        let target = Target()
        let cancellable = c.u.replaceError(with: 0).assign(to: \.value, on: target)
        c.cancel = { emit("AnyCancellable.cancel()"); cancellable.cancel() }
        c.keep.append(cancellable)
    },
]
