import TributaryLocks

extension Publishers {
    /// A publisher that logs every event passing through it, for debugging a pipeline.
    ///
    /// Each event becomes one line, `"<prefix>: <event>"` (just `"<event>"` when the prefix is
    /// empty), written to `stream` or, when it is `nil`, to standard output:
    ///
    /// | event | line |
    /// |---|---|
    /// | subscription | `receive subscription: (<subscription>)` |
    /// | request | `request unlimited` / `request max: (N)` |
    /// | demand returned for a value | `request unlimited (synchronous)` / `request max: (N) (synchronous)` |
    /// | value | `receive value: (<value>)` |
    /// | completion | `receive finished` / `receive error: (<error>)` |
    /// | cancel | `receive cancel` |
    ///
    /// A value's demand of `.none` (what `sink` returns) prints nothing. The line and its newline
    /// are written with two `write` calls, as `Swift.print(_:to:)` does.
    public struct Print<Upstream: Publisher>: Publisher {
        /// The upstream's values, each logged before the subscriber gets it.
        public typealias Output = Upstream.Output

        /// Failures pass through unchanged.
        public typealias Failure = Upstream.Failure

        /// The text put before every line, followed by `": "`.
        public let prefix: String

        /// The publisher whose events are logged.
        public let upstream: Upstream

        /// Where the lines go; standard output when `nil`.
        public let stream: (any TextOutputStream)?

        /// Makes a publisher that logs the events of `upstream`, each line started by `prefix`.
        @inlinable
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        /// Attaches `subscriber` through a logging stage. Each subscription logs to its own copy
        /// of `stream` (a class stream is shared, as usual for reference types).
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, stream: stream))
        }
    }
}

extension Publisher {
    /// Logs every event of the pipeline at this point: subscription, requests, values,
    /// completion and cancellation.
    ///
    /// ```swift
    /// let subscription = (1...3).publisher.print("publisher").sink { _ in }
    /// // publisher: receive subscription: (1...3)
    /// // publisher: request unlimited
    /// // publisher: receive value: (1)
    /// // publisher: receive value: (2)
    /// // publisher: receive value: (3)
    /// // publisher: receive finished
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: put before every line, followed by `": "`; nothing is put when it is empty.
    ///   - stream: where to write; standard output when `nil`.
    @inlinable
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}

extension Publishers.Print {
    /// The logging stage. It wraps the upstream subscription (so `request` and `cancel` can be
    /// logged) and shows itself to the subscriber as `Print`. Like Apple's it has no terminal
    /// state: every value and completion is logged and passed on, whatever came before; after a
    /// cancel, requests and cancels are logged but no longer reach the upstream.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let linePrefix: String
        /// The upstream subscription, from its arrival until a completion or a cancel; after
        /// those a new subscription is refused. A cancel before any subscription does nothing.
        @usableFromInline let status = LockedState(SubscriptionStatus.awaitingSubscription)
        /// The stream, behind its own lock: `request` and `cancel` may log from another thread
        /// while a value is being logged. The lock is a leaf (only the stream's `write` runs
        /// under it), so it cannot take part in a lock-order cycle unless the stream itself
        /// re-enters this pipeline.
        @usableFromInline let stream: LockedState<(any TextOutputStream)?>
        @usableFromInline let prefix: String

        @inlinable
        init(downstream: Downstream, prefix: String, stream: (any TextOutputStream)?) {
            self.downstream = downstream
            self.prefix = prefix
            self.linePrefix = prefix.isEmpty ? "" : prefix + ": "
            self.stream = LockedState(stream)
        }

        @inlinable
        func log(_ event: String) {
            let line = linePrefix + event
            stream.withLock { stream in
                if stream == nil {
                    Swift.print(line)
                } else {
                    // Three writes, as Apple's: an empty one, the text, the line break.
                    stream!.write("")
                    stream!.write(line)
                    stream!.write("\n")
                }
            }
        }

        @inlinable
        static func describe(_ demand: Subscribers.Demand) -> String {
            if let count = demand.max { return "max: (\(count))" }
            return "unlimited"
        }

        @inlinable
        func receive(subscription: any Subscription) {
            log("receive subscription: (\(subscription))")
            let accepted = status.withLock { $0.accept(subscription) }
            guard accepted else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            log("receive value: (\(input))")
            let more = downstream.receive(input)
            if more != .none {
                log("request \(Self.describe(more)) (synchronous)")
            }
            return more
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished: log("receive finished")
            case .failure(let error): log("receive error: (\(error))")
            }
            _ = status.withLock { $0.terminate() }
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Publishers.Print subscription request(_:)")
            log("request \(Self.describe(demand))")
            status.withLock { $0.subscription }?.request(demand)
        }

        @inlinable
        func cancel() {
            log("receive cancel")
            status.withLock { status -> (any Subscription)? in
                guard case .subscribed(let subscription) = status else { return nil }
                status = .terminal
                return subscription
            }?.cancel()
        }

        /// Shown as `Print`, with no mirror children, as Apple's.
        @usableFromInline var description: String { "Print" }

    }
}
