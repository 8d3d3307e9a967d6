import TributaryLocks

#if canImport(Foundation)
import Foundation

extension Timer {
    /// Returns a connectable publisher that emits the current date every `interval` seconds on
    /// `runLoop` in `mode`.
    ///
    /// Nothing is emitted until you call `connect()` (or use `autoconnect()`), however many
    /// subscribers are attached; all of them then share the one timer. The timer only fires while
    /// `runLoop` runs in `mode`: a timer on the run loop of a dispatch-queue thread never fires,
    /// so use `RunLoop.main` (run by the app, or by `RunLoop.main.run()` in a command-line
    /// program) or the run loop of a `Thread` you keep running.
    ///
    /// ```swift
    /// let counter = Timer.publish(every: 1.0, on: .main, in: .common)
    ///     .autoconnect()
    ///     .scan(0) { count, _ in count + 1 }
    ///     .sink { print("Counter is \($0)") }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: Seconds between two dates.
    ///   - tolerance: How late each firing may be; `nil` lets the system choose.
    ///   - runLoop: The run loop whose thread fires the timer and delivers the dates.
    ///   - mode: The run-loop mode in which the timer fires (`.default` or `.common`).
    ///   - options: Scheduler options (there are none for run loops).
    public static func publish(
        every interval: TimeInterval,
        tolerance: TimeInterval? = nil,
        on runLoop: RunLoop,
        in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> Timer.TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }

    /// A connectable publisher of the current date at a regular interval, driven by a `Timer` on a
    /// run loop. Made by `Timer.publish(every:tolerance:on:in:options:)`.
    ///
    /// It is a class because all subscribers share one timer, which `connect()` starts and the
    /// returned `Cancellable` stops. Each subscriber receives the ticks it has demand for; a tick
    /// that arrives while a subscriber has no demand is not kept for it. The publisher never
    /// completes.
    ///
    /// (`@unchecked Sendable`: its mutable state is guarded by a lock; the run loop is only
    /// touched to add and invalidate the timer, which Foundation allows from any thread.)
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        /// The current date at each firing.
        public typealias Output = Date
        /// It never fails.
        public typealias Failure = Never

        /// Seconds between two dates.
        public final let interval: TimeInterval
        /// How late each firing may be; `nil` lets the system choose.
        public final let tolerance: TimeInterval?
        /// The run loop that fires the timer.
        public final let runLoop: RunLoop
        /// The run-loop mode in which the timer fires.
        public final let mode: RunLoop.Mode
        /// Scheduler options (run loops have none).
        public final let options: RunLoop.SchedulerOptions?

        private struct State {
            var sides: [Side] = []
            var timer: Timer?
            /// What the running timer's block reaches this publisher through; cleared on
            /// disconnect, so a timer object that Foundation keeps around a little longer does
            /// not keep the publisher alive.
            var link: LockedState<TimerPublisher?>?
        }

        private let state = LockedState(State())

        /// Creates a timer publisher; prefer `Timer.publish(every:tolerance:on:in:options:)`.
        public init(
            interval: TimeInterval,
            tolerance: TimeInterval? = nil,
            runLoop: RunLoop,
            mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        deinit {
            state.withLock { $0.timer }?.invalidate()
        }

        /// Attaches `subscriber`; the type's documentation describes what it receives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            // Inlinable, so that the subscriber is wrapped where its type is known and the
            // stages below this publisher run specialised code.
            subscriber.receive(subscription: attach(AnySubscriber(subscriber)))
        }

        /// Adds a side for `downstream` to the ones each tick goes to.
        @usableFromInline
        func attach(_ downstream: AnySubscriber<Date, Never>) -> any Subscription {
            let side = Side(publisher: self, downstream: downstream)
            state.withLock { $0.sides.append(side) }
            return side
        }

        /// Starts the shared timer (if it is not running yet; connecting again returns a handle to
        /// the running timer). The first date comes one `interval` from now. Cancelling the
        /// returned value stops the timer; subscribers stay attached and simply receive nothing
        /// more, until a later `connect()` starts a new timer.
        public func connect() -> any Cancellable {
            // While connected, the run loop keeps the timer and the timer keeps this publisher
            // (through `link`), so ticks continue even if nobody else holds the publisher (as with
            // `autoconnect()`); disconnecting breaks that chain.
            let link = LockedState<TimerPublisher?>(self)
            // The first fire date is explicit: swift-corelibs-foundation's
            // `Timer(timeInterval:repeats:block:)` fires at once, where Apple's fires one interval
            // later, which is what a timer publisher's first date means.
            let timer = Timer(fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: true) { _ in
                link.withLock { $0 }?.fire()
            }
            if let tolerance { timer.tolerance = tolerance }
            let (running, started) = state.withLock { state -> (Timer, Bool) in
                if let existing = state.timer { return (existing, false) }
                state.timer = timer
                state.link = link
                return (timer, true)
            }
            if !started { link.withLock { $0 = nil } }
            if started { runLoop.add(timer, forMode: mode) }
            return AnyCancellable { self.disconnect(running) }
        }

        private func disconnect(_ timer: Timer) {
            let link = state.withLock { state -> LockedState<TimerPublisher?>? in
                guard state.timer === timer else { return nil }
                state.timer = nil
                defer { state.link = nil }
                return state.link
            }
            guard let link else { return }
            link.withLock { $0 = nil }
            timer.invalidate()
        }

        private func fire() {
            let date = Date()
            for side in state.withLock({ $0.sides }) {
                side.deliver(date)
            }
        }

        fileprivate func remove(_ side: Side) {
            state.withLock { $0.sides.removeAll { $0 === side } }
        }

        /// One subscriber's connection to the shared timer. Like Apple's, it has no description,
        /// mirror or playground description of its own.
        fileprivate final class Side: Subscription, @unchecked Sendable
        {
            private struct State {
                var demand: Subscribers.Demand = .none
                var downstream: AnySubscriber<Date, Never>?
            }

            private weak var publisher: TimerPublisher?
            private let state: LockedState<State>

            init(publisher: TimerPublisher, downstream: AnySubscriber<Date, Never>) {
                self.publisher = publisher
                state = LockedState(State(downstream: downstream))
            }

            func deliver(_ date: Date) {
                let downstream = state.withLock { state -> AnySubscriber<Date, Never>? in
                    guard state.demand > .none, let downstream = state.downstream else { return nil }
                    state.demand -= 1
                    return downstream
                }
                guard let downstream else { return }
                let more = downstream.receive(date)
                if more > .none { state.withLock { $0.demand += more } }
            }

            func request(_ demand: Subscribers.Demand) {
                demand.assertNonZero("Subscription.request(_:) on Timer.TimerPublisher")
                state.withLock { $0.demand += demand }
            }

            func cancel() {
                state.withLock { $0.downstream = nil }
                publisher?.remove(self)
            }
        }
    }
}
#endif
