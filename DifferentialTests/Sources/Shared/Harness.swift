// The differential harness's moving parts, compiled once against each library: the trace writer,
// the hand-driven upstream `U`, its recording subscriptions `S1`, `S2`…, the tracking downstream
// `D`, and the recording virtual-time scheduler `T`.
//
// Every observation becomes one trace line. Lines must read the same for both libraries whenever
// the behaviour is the same, so nothing that names the library or a memory address survives
// `normalise(_:)`.

#if OPENCOMBINE
import OpenCombine
#else
import Combine
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Trace

/// The trace is collected in memory shared with the parent process (see `runAll` in main.swift)
/// and written out once per scenario: the lines written before a trap survive it (the parent
/// writes them), and a scenario costs one `write` instead of one per line.
enum TraceBuffer {
    static let capacity = 1 << 20
    /// [progress: Int][length: Int][bytes…], shared across `fork()`.
    static let region: UnsafeMutableRawPointer = {
        let size = 2 * MemoryLayout<Int>.size + capacity
        return mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)!
    }()
    static var progress: UnsafeMutablePointer<Int> { region.assumingMemoryBound(to: Int.self) }
    static var length: UnsafeMutablePointer<Int> { (region + MemoryLayout<Int>.size).assumingMemoryBound(to: Int.self) }
    static var bytes: UnsafeMutablePointer<UInt8> {
        (region + 2 * MemoryLayout<Int>.size).assumingMemoryBound(to: UInt8.self)
    }

    static func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        if length.pointee + buffer.count > capacity { flush() }
        if buffer.count > capacity {
            writeAll(buffer)
            return
        }
        (bytes + length.pointee).update(from: buffer.baseAddress!, count: buffer.count)
        length.pointee += buffer.count
    }

    static func flush() {
        writeAll(UnsafeBufferPointer(start: bytes, count: length.pointee))
        length.pointee = 0
    }

    static func writeAll(_ buffer: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < buffer.count {
            let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

/// Adds one line to the trace.
func emit(_ line: String) {
    if teardown.lines != nil {
        teardown.lines!.append(normalise(line))
        return
    }
    var text = normalise(line) + "\n"
    text.withUTF8 { TraceBuffer.append($0) }
}

/// Removes what differs between the libraries without being behaviour: the module name, the
/// namespace OpenCombine puts its extensions of standard types in, the anonymous context a
/// `private` type's name carries (`(unknown context at $55d559ff8f80).`), and memory addresses
/// (`0x…`).
func normalise(_ line: String) -> String {
    var line = line
    if line.contains("OpenCombine") {
        line = line.replacingAll("(extension in OpenCombine):", with: "(extension in Combine):")
            .replacingAll(".OCombine.", with: ".")
            .replacingAll("OpenCombine.", with: "Combine.")
    }
    while let start = line[...].range(of: "(unknown context at $") {
        guard let end = line[start.upperBound...].range(of: ").") else { break }
        line = String(line[..<start.lowerBound]) + line[end.upperBound...]
    }
    guard line.contains("0x") else { return line }
    var result = ""
    var characters = Array(line)[...]
    while let first = characters.first {
        if first == "0", characters.dropFirst().first == "x" {
            characters = characters.dropFirst(2)
            while let c = characters.first, c.isHexDigit { characters = characters.dropFirst() }
            result += "0xADDR"
        } else {
            result.append(first)
            characters = characters.dropFirst()
        }
    }
    return result
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}

extension Substring {
    func range(of target: String) -> Range<Index>? {
        guard !target.isEmpty else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) {
                return index..<self.index(index, offsetBy: target.count)
            }
            index = self.index(after: index)
        }
        return nil
    }
}

/// A demand, spelled the same way for both libraries.
func fmt(_ demand: Subscribers.Demand) -> String {
    if demand == .unlimited { return "unlimited" }
    return demand.max == 0 ? "none" : "max(\(demand.max!))"
}

func fmt<F: Error>(_ completion: Subscribers.Completion<F>) -> String {
    switch completion {
    case .finished: return "finished"
    case .failure(let error): return "failure(\(error))"
    }
}

/// Which object a subscriber was handed: one of the upstream's recording subscriptions (passed
/// through) by name, or an object of the library's own.
func identity(_ object: Any) -> String {
    if let subscription = object as? RecordingSubscription { return subscription.name }
    return "own"
}

/// Emits the shape of a library object on a line of its own, marked `~`: the driver compares
/// shapes per operator, not per scenario (they rarely depend on the script).
///
/// Not while an `_Introspection` recorder watches: the objects handed out then are the
/// library's watching wrappers, whose shape is not the operator's.
func emitShape(_ what: String, _ object: Any) {
    if object is RecordingSubscription || IntrospectionRecorder.watching { return }
    emit("~ \(what) \(describe(object))")
}

/// How an object shows itself: its description (only when it supplies one: the default
/// description spells out private stored properties), which of the display protocols it adopts,
/// its mirror's child labels and its playground description.
func describe(_ object: Any) -> String {
    var parts: [String] = []
    if let described = object as? CustomStringConvertible {
        parts.append("\"\(described.description)\"")
    } else {
        parts.append("<no description>")
    }
    if object is CustomDebugStringConvertible { parts.append("debug") }
    if let reflectable = object as? CustomReflectable {
        let labels = reflectable.customMirror.children.map { $0.label ?? "_" }
        parts.append("mirror[\(labels.joined(separator: ","))]")
    }
    if let playground = object as? CustomPlaygroundDisplayConvertible {
        parts.append("playground(\(playground.playgroundDescription))")
    }
    if object is Cancellable { parts.append("Cancellable") }
    if object is Subscription { parts.append("Subscription") }
    if object is CustomCombineIdentifierConvertible { parts.append("Identified") }
    return parts.joined(separator: " ")
}

// MARK: - Reflection

/// What the library's objects show of themselves while a scenario runs: after every script event
/// and while `D` receives a value or a completion, each object of the chain the harness can reach
/// (the subscription `D` holds and every subscriber attached to `U`) is written out as `dump`
/// would show it, on one `%` line. The driver compares these lines per operator, as it does the
/// shapes: a line one library writes and the other never does is a difference.
///
/// The dump is pruned where the two libraries could only differ by how they are written: an
/// object without a custom mirror (its stored properties, which each library names its own way)
/// is shown by its summary alone, as are the harness's own objects. Custom mirrors, optionals,
/// collections, dictionaries, sets and tuples are expanded, so a custom mirror's children are
/// compared however deep they sit.
enum Reflection {
    /// The objects to show: the context sets it when it attaches `D`.
    static var objects: () -> [(String, Any)] = { [] }
    /// The lines already written for the current entry: each is written once per entry.
    static var seen: Set<String> = []
    static var entry = ""

    /// Starts a scenario of `entry`.
    static func begin(_ entry: String) {
        if entry != self.entry {
            self.entry = entry
            seen = []
        }
        objects = { [] }
    }

    /// Writes what every object shows now; `context` says when. An object met again under
    /// another name (the subscription `D` holds is often the subscriber attached to `U`) is
    /// written as being that object: identity is part of the shape.
    static func snapshot(_ context: String) {
        if IntrospectionRecorder.watching { return }
        var named: [ObjectIdentifier: String] = [:]
        for (who, object) in objects() {
            var text: String
            if type(of: object) is AnyClass, let first = named[ObjectIdentifier(object as AnyObject)] {
                text = "is \(first)"
            } else {
                if type(of: object) is AnyClass { named[ObjectIdentifier(object as AnyObject)] = who }
                text = render(object)
            }
            let line = normalise(valueText("% \(context) \(who) \(text)"))
            if seen.insert(line).inserted { emit(line) }
        }
    }

    /// `dump`'s text of `object`, pruned as the type's comment says, its lines joined by ` ⏎ `.
    static func render(_ object: Any) -> String {
        var lines: [String] = []
        var visited: [ObjectIdentifier: Int] = [:]
        node(object, label: nil, depth: 0, visited: &visited, into: &lines)
        return lines.joined(separator: " ⏎ ")
    }

    static func isHarnessObject(_ value: Any) -> Bool {
        value is RecordingSubscription || value is HandDriven || value is RecordingScheduler
            || value is RecordingScheduler.Token || "\(type(of: value))".hasPrefix("Tracker<")
    }

    static func node(_ value: Any, label: String?, depth: Int, visited: inout [ObjectIdentifier: Int],
                     into lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        let prefix = label.map { "\($0): " } ?? ""
        let mirror = Mirror(reflecting: value)
        // As `dump` sums a value up: its debug description, its description, or else its type's
        // name (not the stored properties `String(describing:)` would spell out), with the case
        // of an enum, whose payload is shown as `String(reflecting:)` spells it rather than
        // expanded as `dump` would.
        var summary: String
        if let debug = value as? CustomDebugStringConvertible {
            summary = debug.debugDescription
        } else if let described = value as? CustomStringConvertible {
            summary = described.description
        } else if mirror.displayStyle == .enum {
            summary = String(reflecting: value)
        } else {
            summary = String(reflecting: type(of: value))
        }
        if mirror.displayStyle == .collection || mirror.displayStyle == .set || mirror.displayStyle == .dictionary {
            summary = "\(mirror.children.count) elements"
        }
        let expands: Bool
        switch mirror.displayStyle {
        case .optional, .collection, .dictionary, .set, .tuple: expands = true
        default: expands = value is CustomReflectable && !isHarnessObject(value)
        }
        var identity = ""
        if type(of: value) is AnyClass {
            let id = ObjectIdentifier(value as AnyObject)
            if let seen = visited[id] {
                lines.append("\(indent)- \(prefix)\(summary) #\(seen) (again)")
                return
            }
            identity = " #\(visited.count)"
            visited[id] = visited.count
        }
        if mirror.displayStyle == .optional, mirror.children.isEmpty {
            lines.append("\(indent)- \(prefix)nil")
            return
        }
        guard expands, !mirror.children.isEmpty, depth < 12 else {
            lines.append("\(indent)- \(prefix)\(summary)\(identity)")
            return
        }
        lines.append("\(indent)▿ \(prefix)\(summary)\(identity)")
        if let superclass = mirror.superclassMirror, !superclass.children.isEmpty {
            lines.append("\(indent)  ▿ super: \(superclass.subjectType)")
        }
        for child in mirror.children.prefix(20) {
            node(child.value, label: child.label ?? "_", depth: depth + 1, visited: &visited, into: &lines)
        }
    }
}

// MARK: - Introspection

/// Writes every `_Introspection` report as an `I.` line: which publisher type a subscriber is
/// attached to, and each subscription, value, completion, request and cancel the library
/// reports, with the objects shown as `label(_:)` shows them.
final class IntrospectionRecorder: _Introspection {
    /// Whether a recorder is enabled (the harness runs one scenario at a time).
    static var watching = false

    func start() {
        enable()
        IntrospectionRecorder.watching = true
    }

    func stop() {
        disable()
        IntrospectionRecorder.watching = false
    }

    func willReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
    where P.Failure == S.Failure, P.Output == S.Input {
        emit("I.will-attach \(P.self) <- \(label(subscriber))")
    }

    func didReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
    where P.Failure == S.Failure, P.Output == S.Input {
        emit("I.did-attach \(P.self) <- \(label(subscriber))")
    }

    func willReceive<S: Subscriber>(subscriber: S, subscription: Subscription) {
        emit("I.will-subscription \(label(subscriber)) <- \(label(subscription))")
    }

    func didReceive<S: Subscriber>(subscriber: S, subscription: Subscription) {
        emit("I.did-subscription \(label(subscriber)) <- \(label(subscription))")
    }

    func willReceive<S: Subscriber>(subscriber: S, input: S.Input) {
        emit("I.will-value \(label(subscriber)) \(valueText(input))")
    }

    func didReceive<S: Subscriber>(subscriber: S, input: S.Input, resultingDemand: Subscribers.Demand) {
        emit("I.did-value \(label(subscriber)) \(valueText(input)) -> \(fmt(resultingDemand))")
    }

    func willReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {
        emit("I.will-completion \(label(subscriber)) \(fmt(completion))")
    }

    func didReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {
        emit("I.did-completion \(label(subscriber)) \(fmt(completion))")
    }

    func willRequest(subscription: Subscription, _ demand: Subscribers.Demand) {
        emit("I.will-request \(label(subscription)) \(fmt(demand))")
    }

    func didRequest(subscription: Subscription, _ demand: Subscribers.Demand) {
        emit("I.did-request \(label(subscription)) \(fmt(demand))")
    }

    func willCancel(subscription: Subscription) {
        emit("I.will-cancel \(label(subscription))")
    }

    func didCancel(subscription: Subscription) {
        emit("I.did-cancel \(label(subscription))")
    }
}

/// A value as the trace shows it, without the harness's own module name (each executable is a
/// module of its own, so the publishers an operator receives as values would differ by it).
func valueText(_ value: Any) -> String {
    "\(value)".replacingAll("DiffTributary.", with: "").replacingAll("DiffOpenCombine.", with: "")
        .replacingAll("DiffCombine.", with: "")
        // The scenario file's path (`assertNoFailure`'s `file`) runs through each target's link.
        .replacingAll("/DiffTributary/", with: "/Shared/").replacingAll("/DiffOpenCombine/", with: "/Shared/")
}

/// A reported object as the trace names it: the upstream's recording subscriptions by name,
/// anything else by its description, or `?` when it has none (the default description of a
/// library's private type spells out its name and fields, which the libraries do not share).
func label(_ object: Any) -> String {
    if let subscription = object as? RecordingSubscription { return subscription.name }
    if let described = object as? CustomStringConvertible { return described.description }
    return "?"
}

// MARK: - Errors

enum TestError: Error, CustomStringConvertible, Equatable {
    /// What the hand-driven upstream fails with.
    case upstream
    /// What the operators' closures throw.
    case thrown
    /// What `timeout`'s custom error closure returns.
    case timedOut

    var description: String {
        switch self {
        case .upstream: return "e"
        case .thrown: return "thrown"
        case .timedOut: return "timedOut"
        }
    }
}

// MARK: - Hand-driven upstream

/// The values the upstream sends, in order: an odd first value, a repeated second one (which the
/// `try` closures throw on and `removeDuplicates` drops), then more.
let upstreamValues = [1, 2, 2, 3, 4, 5, 5, 6, 7, 8]

/// A subscription handed out by `U`; records the calls made on it.
final class RecordingSubscription: Subscription, CustomStringConvertible {
    let name: String
    init(name: String) { self.name = name }
    func request(_ demand: Subscribers.Demand) {
        emit("\(name).request(\(fmt(demand)))")
        upstreamOnRequest?(name, demand)
    }
    func cancel() { emit("\(name).cancel") }
    var description: String { name }
    deinit { emit("\(name) released") }
}

/// A publisher driven by the script: it keeps every subscriber attached to it and, at each script
/// event, sends a fresh subscription, a value or a completion to all of them, in attachment order,
/// whatever it sent before (events before the subscription, twice, after a completion).
final class HandDriven: Publisher {
    typealias Output = Int
    typealias Failure = TestError

    struct Attached {
        let index: Int
        /// The subscriber itself, for ``Reflection``.
        let object: Any
        let subscription: (Subscription) -> Void
        let value: (Int) -> Subscribers.Demand
        let completion: (Subscribers.Completion<TestError>) -> Void
        let cancel: (() -> Void)?
    }

    let name: String
    var attached: [Attached] = []
    var subscriptions = 0
    var sent = 0

    init(name: String = "U") { self.name = name }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        let index = attached.count + 1
        emit("\(name).attach#\(index)")
        emitShape("\(name).attach#\(index)", subscriber)
        attached.append(Attached(
            index: index,
            object: subscriber,
            subscription: { subscriber.receive(subscription: $0) },
            value: { subscriber.receive($0) },
            completion: { subscriber.receive(completion: $0) },
            cancel: (subscriber as? Cancellable).map { cancellable in { cancellable.cancel() } }
        ))
    }

    func sendSubscription() {
        for target in attached {
            subscriptions += 1
            let subscription = RecordingSubscription(name: name == "U" ? "S\(subscriptions)" : "\(name).S\(subscriptions)")
            emit("\(name)#\(target.index).subscription(\(subscription.name))")
            target.subscription(subscription)
        }
    }

    func sendValue() {
        sendValue(to: attached.map(\.index))
    }

    /// Sends the next value to the subscribers attached in the given places only (`1` is the
    /// first), for scenarios where one of several attached subscribers sends from inside another
    /// one's delivery.
    func sendValue(to indices: [Int]) {
        let value = upstreamValues[sent % upstreamValues.count]
        sent += 1
        for target in attached where indices.contains(target.index) {
            emit("\(name)#\(target.index).send(\(value))")
            let demand = target.value(value)
            emit("\(name)#\(target.index).send(\(value)) -> \(fmt(demand))")
        }
    }

    func sendCompletion(_ completion: Subscribers.Completion<TestError>) {
        for target in attached {
            emit("\(name)#\(target.index).\(fmt(completion))")
            target.completion(completion)
        }
    }

    /// Asks the upstream-facing object directly (the operator's subscriber) for one value, as a
    /// `Subscription`, before or after its subscription.
    func requestSubscribers() {
        for target in attached {
            if let subscription = target.object as? Subscription {
                emit("\(name)#\(target.index).request-subscriber(max(1))")
                subscription.request(.max(1))
            } else {
                emit("\(name)#\(target.index).request-subscriber: not a Subscription")
            }
        }
    }

    /// Cancels the upstream-facing object directly (the operator's subscriber), as a
    /// `Cancellable`, before or after its subscription.
    func cancelSubscribers() {
        for target in attached {
            if let cancel = target.cancel {
                emit("\(name)#\(target.index).cancel-subscriber")
                cancel()
            } else {
                emit("\(name)#\(target.index).cancel-subscriber: not Cancellable")
            }
        }
    }
}

// MARK: - Tracking downstream

/// What `D` answers to each value: `.none` unless the entry says otherwise.
var downstreamAnswer = Subscribers.Demand.none

/// What `D` does inside each `receive(_:)` before answering, for the entries that send from
/// inside the subscriber; `nil` (nothing) unless the entry says otherwise.
var downstreamOnValue: (() -> Void)?

/// What the upstream's recording subscriptions do inside each `request(_:)` after recording it,
/// with the subscription's name, for the entries that send from inside a request; `nil` unless
/// the entry says otherwise.
var upstreamOnRequest: ((String, Subscribers.Demand) -> Void)?

/// The downstream at the end of every scenario: records what it receives and answers
/// `downstreamAnswer` to each value; the script makes its other requests and its cancel.
final class Tracker<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    let combineIdentifier = CombineIdentifier()
    var subscription: Subscription?

    func receive(subscription: Subscription) {
        emit("D.subscription(\(identity(subscription)))")
        emitShape("D.subscription", subscription)
        self.subscription = subscription
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        if let downstreamOnValue {
            // The entry acts from inside `D`: mark where the call starts, to show what nests in it.
            emit("D.value(\(input)) begins")
            downstreamOnValue()
        }
        emit("D.value(\(input)) -> \(fmt(downstreamAnswer))")
        Reflection.snapshot("in D.value")
        return downstreamAnswer
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        emit("D.\(fmt(completion))")
        Reflection.snapshot("in D.completion")
    }

    var description: String { "D" }

    deinit { emit("D released") }
}

// MARK: - Recording virtual-time scheduler

struct VirtualTime: Strideable, CustomStringConvertible {
    var ticks: Int
    func distance(to other: VirtualTime) -> Stride { Stride(other.ticks - ticks) }
    func advanced(by n: Stride) -> VirtualTime { VirtualTime(ticks: ticks + n.ticks) }
    var description: String { "t\(ticks)" }

    struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable, CustomStringConvertible {
        var ticks: Int
        init(_ ticks: Int) { self.ticks = ticks }
        init(integerLiteral value: Int) { ticks = value }
        init?<T: BinaryInteger>(exactly source: T) {
            guard let value = Int(exactly: source) else { return nil }
            ticks = value
        }
        var magnitude: Int { abs(ticks) }
        static func seconds(_ s: Int) -> Stride { Stride(s) }
        static func seconds(_ s: Double) -> Stride { Stride(Int(s)) }
        static func milliseconds(_ ms: Int) -> Stride { Stride(ms / 1000) }
        static func microseconds(_ us: Int) -> Stride { Stride(us / 1_000_000) }
        static func nanoseconds(_ ns: Int) -> Stride { Stride(ns / 1_000_000_000) }
        static func < (a: Stride, b: Stride) -> Bool { a.ticks < b.ticks }
        static func + (a: Stride, b: Stride) -> Stride { Stride(a.ticks + b.ticks) }
        static func - (a: Stride, b: Stride) -> Stride { Stride(a.ticks - b.ticks) }
        static func * (a: Stride, b: Stride) -> Stride { Stride(a.ticks * b.ticks) }
        static func += (a: inout Stride, b: Stride) { a.ticks += b.ticks }
        static func -= (a: inout Stride, b: Stride) { a.ticks -= b.ticks }
        static func *= (a: inout Stride, b: Stride) { a.ticks *= b.ticks }
        var description: String { "\(ticks)" }
    }
}

/// A virtual-time scheduler that records every call made on it (`T.now`, `T.minTol`, `T.sched`,
/// `T.schedAfter(…)`, `T.schedEvery(…)`), the cancellation and release of its tokens, and runs
/// nothing until the script advances it (`adv`: one tick, running every action due by then).
final class RecordingScheduler: Scheduler {
    typealias SchedulerTimeType = VirtualTime
    struct SchedulerOptions {}

    final class Token: Cancellable {
        let id: Int
        var cancelled = false
        init(id: Int) { self.id = id }
        func cancel() {
            emit("T.token#\(id).cancel")
            cancelled = true
        }
        deinit { emit("T.token#\(id) released") }
    }

    struct Item {
        var due: VirtualTime
        var order: Int
        var interval: VirtualTime.Stride?
        weak var token: Token?
        var action: () -> Void
    }

    var clock = VirtualTime(ticks: 0)
    var items: [Item] = []
    var nextOrder = 0
    var tokens = 0

    var now: VirtualTime {
        emit("T.now")
        return clock
    }

    var minimumTolerance: VirtualTime.Stride {
        emit("T.minTol")
        return VirtualTime.Stride(0)
    }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        emit("T.sched")
        nextOrder += 1
        items.append(Item(due: clock, order: nextOrder, interval: nil, token: nil, action: action))
    }

    func schedule(after date: VirtualTime, tolerance: VirtualTime.Stride, options: SchedulerOptions?,
                  _ action: @escaping () -> Void) {
        emit("T.schedAfter(\(date), \(tolerance))")
        nextOrder += 1
        items.append(Item(due: date, order: nextOrder, interval: nil, token: nil, action: action))
    }

    func schedule(after date: VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride,
                  options: SchedulerOptions?, _ action: @escaping () -> Void) -> Cancellable {
        tokens += 1
        emit("T.schedEvery(\(date), \(interval), \(tolerance)) -> token#\(tokens)")
        let token = Token(id: tokens)
        nextOrder += 1
        items.append(Item(due: date, order: nextOrder, interval: interval, token: token, action: action))
        return token
    }

    /// Moves the clock one tick on and runs every action due by then, earliest first.
    func advance() {
        let target = clock.ticks + 1
        while true {
            items.removeAll { $0.interval != nil && ($0.token == nil || $0.token!.cancelled) }
            guard let index = items.indices
                .filter({ items[$0].due.ticks <= target })
                .min(by: { (items[$0].due.ticks, items[$0].order) < (items[$1].due.ticks, items[$1].order) })
            else { break }
            var item = items.remove(at: index)
            if item.due.ticks > clock.ticks { clock = item.due }
            if let interval = item.interval {
                item.due = item.due.advanced(by: interval)
                nextOrder += 1
                item.order = nextOrder
                items.append(item)
            }
            emit("T.run @\(clock)")
            item.action()
        }
        clock = VirtualTime(ticks: target)
        emit("T.advanced to \(clock)")
    }
}

/// A `TextOutputStream` for `print(_:to:)` that traces each write.
struct TraceStream: TextOutputStream {
    mutating func write(_ string: String) {
        emit("print.write(\(string.debugDescription))")
    }
}
