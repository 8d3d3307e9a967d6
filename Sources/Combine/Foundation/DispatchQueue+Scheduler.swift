#if canImport(Dispatch)
import Dispatch

// Dispatch wants `@Sendable` work items; `Scheduler` hands us plain closures (Apple's protocol has
// no `@Sendable`, and neither may ours). Running a closure on the queue it was scheduled on is the
// whole point of a scheduler, so the closure is moved across as-is.
private struct DispatchSchedulerAction: @unchecked Sendable {
    let run: () -> Void
}

/// `DispatchQueue` as a Combine scheduler: actions are submitted asynchronously to the queue
/// (`async`, `asyncAfter`, or a Dispatch timer source for repeating work).
///
/// Prefer serial queues: a concurrent queue may run two deliveries to the same subscriber at
/// once, which breaks Combine's one-event-at-a-time contract. `receive(on:)` always submits
/// asynchronously, even when already on the queue.
///
/// ## The main queue in a Linux command-line program
/// `DispatchQueue.main` only runs its work when something drains it. In an app the UI event loop
/// does; in a command-line program you must do it yourself, after setting up your pipelines:
/// - `dispatchMain()` hands the main thread to Dispatch for good (it never returns; call `exit`
///   from a work item when done). On Linux the main queue is then drained by a Dispatch worker
///   thread, so check `dispatchPrecondition(condition: .onQueue(.main))`, not
///   `Thread.isMainThread`.
/// - `RunLoop.main.run()` or `RunLoop.main.run(until:)` runs the main run loop, which also drains
///   the main queue (on the main thread), and serves `RunLoop.main` and `Timer.publish(on: .main…)`.
///
/// An `async` `main` (and the `swift test` runner) already hands the main thread to Dispatch, so
/// there the main queue is drained without further ado.
extension DispatchQueue: Scheduler {
    /// Options for work that a dispatch queue runs on behalf of a Combine operator.
    ///
    /// The queue's own quality of service still applies; these settings travel with each work item
    /// (for example to give the delivery of UI values `.userInteractive` priority).
    ///
    /// (`@unchecked Sendable`: every field is an immutable value or a thread-safe Dispatch object;
    /// Linux's Dispatch overlay merely lacks the annotation on `DispatchWorkItemFlags`.)
    public struct SchedulerOptions: @unchecked Sendable {
        /// The quality of service for the scheduled work item.
        public var qos: DispatchQoS
        /// Flags for the scheduled work item, such as `.barrier`.
        public var flags: DispatchWorkItemFlags
        /// A group the work item joins while it is pending, so callers can wait for it.
        public var group: DispatchGroup?

        /// Options with the given quality of service, flags and group.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// A point in time for a dispatch queue: a `DispatchTime` (uptime-based, so it keeps counting
    /// monotonically and does not jump when the wall clock is changed).
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time this value stands for.
        public var dispatchTime: DispatchTime

        /// Wraps `time`.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// The time `n` later (or earlier, for a negative stride), as Apple computes it: the longest
        /// stride (`.nanoseconds(.max)`) and anything past the end of the time line give
        /// `DispatchTime.distantFuture`; going back past the start of uptime stops at its first
        /// nanosecond.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            let base = dispatchTime.uptimeNanoseconds
            if n.magnitude == .max || base == DispatchTime.distantFuture.uptimeNanoseconds {
                return SchedulerTimeType(.distantFuture)
            }
            if n.magnitude >= 0 {
                let (sum, overflow) = base.addingReportingOverflow(UInt64(n.magnitude))
                return SchedulerTimeType(overflow ? .distantFuture : DispatchTime(uptimeNanoseconds: sum))
            }
            let back = UInt64(n.magnitude.magnitude)
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: base > back ? max(base - back, 1) : 1))
        }

        /// The signed distance in nanoseconds from this time to `other`. As Apple's, it saturates:
        /// when either time is `distantFuture`, or within 1024 ns of it, the distance is
        /// `.nanoseconds(.max)`, whichever way it is measured, except from a time to itself,
        /// which is `0` there too.
        public func distance(to other: SchedulerTimeType) -> Stride {
            let from = dispatchTime.uptimeNanoseconds
            let to = other.dispatchTime.uptimeNanoseconds
            if from == to { return Stride(nanoseconds: 0) }
            let nearTheEnd = DispatchTime.distantFuture.uptimeNanoseconds - 1024
            if from >= nearTheEnd || to >= nearTheEnd {
                return Stride(nanoseconds: .max)
            }
            if to >= from {
                let difference = to - from
                return Stride(nanoseconds: difference > UInt64(Int.max) ? Int.max : Int(difference))
            }
            let difference = from - to
            return Stride(nanoseconds: difference > UInt64(Int.max) ? Int.min : -Int(difference))
        }

        /// Orders by position on the time line (or by length, for strides).
        public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds < rhs.dispatchTime.uptimeNanoseconds
        }

        /// Equal when the uptimes are equal.
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        /// Hashes the uptime, consistently with `==`.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.uptimeNanoseconds)
        }

        /// Decodes the uptime in nanoseconds written by `encode(to:)`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            self.init(DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self)))
        }

        /// Encodes the uptime in nanoseconds. Uptime restarts at boot, so a decoded value is only
        /// meaningful on the machine and boot session that produced it.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// A distance between two dispatch times, counted in nanoseconds.
        ///
        /// Integer and floating-point literals are seconds, so `debounce(for: 0.5, …)` reads as half
        /// a second.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable, Codable, Sendable
        {
            /// Floating-point literals are seconds.
            public typealias FloatLiteralType = Double
            /// Integer literals are whole seconds.
            public typealias IntegerLiteralType = Int
            /// The magnitude is a nanosecond count.
            public typealias Magnitude = Int

            /// The length of this stride in nanoseconds (negative for a backwards stride).
            public var magnitude: Int

            /// Apple encodes the nanosecond count under this key.
            private enum CodingKeys: String, CodingKey {
                case magnitude = "_nanoseconds"
            }

            /// The same length as a `DispatchTimeInterval`, for handing to Dispatch APIs.
            public var timeInterval: DispatchTimeInterval {
                .nanoseconds(magnitude)
            }

            @usableFromInline
            init(nanoseconds: Int) {
                magnitude = nanoseconds
            }

            /// A stride as long as `timeInterval`; `.never` becomes the longest representable stride.
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): magnitude = Stride.scaled(s, by: 1_000_000_000)
                case .milliseconds(let ms): magnitude = Stride.scaled(ms, by: 1_000_000)
                case .microseconds(let us): magnitude = Stride.scaled(us, by: 1_000)
                case .nanoseconds(let ns): magnitude = ns
                case .never: magnitude = .max
                @unknown default: magnitude = .max
                }
            }

            /// A stride of `value` seconds.
            public init(floatLiteral value: Double) {
                magnitude = Stride.nanoseconds(fromSeconds: value)
            }

            /// A stride of `value` whole seconds.
            public init(integerLiteral value: Int) {
                magnitude = Stride.scaled(value, by: 1_000_000_000)
            }

            /// A stride of `source` seconds, or `nil` when that many nanoseconds do not fit in `Int`.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                if overflow { return nil }
                magnitude = nanoseconds
            }

            /// Orders by position on the time line (or by length, for strides).
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires. A result that does
            /// not fit in the count traps, naming the stride type and the operation.
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                let (product, overflow) = lhs.magnitude.multipliedReportingOverflow(by: rhs.magnitude)
                if overflow { APIViolation.strideOverflow(typeName, "*", lhs.magnitude, rhs.magnitude) }
                return Stride(nanoseconds: product)
            }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires. A result that does
            /// not fit in the count traps, naming the stride type and the operation.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                let (sum, overflow) = lhs.magnitude.addingReportingOverflow(rhs.magnitude)
                if overflow { APIViolation.strideOverflow(typeName, "+", lhs.magnitude, rhs.magnitude) }
                return Stride(nanoseconds: sum)
            }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires. A result that does
            /// not fit in the count traps, naming the stride type and the operation.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                let (difference, overflow) = lhs.magnitude.subtractingReportingOverflow(rhs.magnitude)
                if overflow { APIViolation.strideOverflow(typeName, "-", lhs.magnitude, rhs.magnitude) }
                return Stride(nanoseconds: difference)
            }

            /// The name the overflow traps give.
            private static var typeName: String { "DispatchQueue.SchedulerTimeType.Stride" }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

            /// A stride of `s` seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(.seconds(s)) }

            /// A stride of `s` seconds, rounded to the nearest nanosecond.
            public static func seconds(_ s: Double) -> Stride { Stride(floatLiteral: s) }

            /// A stride of `ms` milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(.milliseconds(ms)) }

            /// A stride of `us` microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(.microseconds(us)) }

            /// A stride of `ns` nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(.nanoseconds(ns)) }

            /// `value × factor`, saturating instead of trapping, as Dispatch does for huge intervals.
            private static func scaled(_ value: Int, by factor: Int) -> Int {
                let (product, overflow) = value.multipliedReportingOverflow(by: factor)
                if overflow { return value < 0 ? .min : .max }
                return product
            }

            private static func nanoseconds(fromSeconds seconds: Double) -> Int {
                let nanoseconds = (seconds * 1_000_000_000).rounded()
                if nanoseconds >= Double(Int.max) { return .max }
                if nanoseconds <= Double(Int.min) { return .min }
                return Int(nanoseconds)
            }
        }
    }

    /// The current time, from Dispatch's uptime clock.
    public var now: SchedulerTimeType {
        SchedulerTimeType(.now())
    }

    /// Dispatch accepts any leeway, so no tolerance is required.
    public var minimumTolerance: SchedulerTimeType.Stride {
        SchedulerTimeType.Stride(.nanoseconds(0))
    }

    /// Submits `action` asynchronously to this queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = DispatchSchedulerAction(run: action)
        async(
            group: options?.group,
            qos: options?.qos ?? .unspecified,
            flags: options?.flags ?? []
        ) { work.run() }
    }

    /// Submits `action` to this queue at `date`. Dispatch has no per-item leeway for one-shot work,
    /// so `tolerance` is not used.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = DispatchSchedulerAction(run: action)
        if let group = options?.group {
            group.enter()
            asyncAfter(deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
                work.run()
                group.leave()
            }
        } else {
            asyncAfter(deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
                work.run()
            }
        }
    }

    /// Runs `action` on this queue at `date` and then every `interval`, using a Dispatch timer
    /// source with `tolerance` as its leeway. Cancelling (or releasing) the returned value cancels
    /// the timer source, after which `action` never runs again.
    ///
    /// A negative `interval` or `tolerance` stops the program with a message naming this method:
    /// Dispatch cannot take either, and would stop it anyway, silently.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        // Dispatch takes both as unsigned nanosecond counts and stops the process on a negative
        // one without a word (Apple's Dispatch overlay does the same); say which call and why.
        if interval.magnitude < 0 {
            APIViolation.invalidSchedulerArgument(
                "DispatchQueue.schedule(after:interval:tolerance:options:_:) was given a negative interval (\(interval.magnitude) ns); a dispatch timer cannot repeat backwards (debounce and timeout arm one with their interval).")
        }
        if tolerance.magnitude < 0 {
            APIViolation.invalidSchedulerArgument(
                "DispatchQueue.schedule(after:interval:tolerance:options:_:) was given a negative tolerance (\(tolerance.magnitude) ns); a dispatch timer's leeway cannot be negative.")
        }
        let work = DispatchSchedulerAction(run: action)
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
            work.run()
        }
        timer.schedule(
            deadline: date.dispatchTime,
            repeating: interval.timeInterval,
            leeway: tolerance.timeInterval)
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}
#endif
