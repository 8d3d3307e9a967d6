extension Publishers {
    /// A connectable wrapper around a publisher: subscribers can attach first, and nothing is
    /// requested from the upstream until ``connect()``.
    ///
    /// Events are shared among the subscribers through a `PassthroughSubject`, so the upstream
    /// is subscribed to once per connection. Copies of this value share that subject.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        /// The upstream's values, which start to flow when `connect()` is called.
        public typealias Output = Upstream.Output

        /// Failures pass through unchanged.
        public typealias Failure = Upstream.Failure

        @usableFromInline
        let multicast: Publishers.Multicast<Upstream, PassthroughSubject<Upstream.Output, Upstream.Failure>>

        /// Makes a connectable publisher over `upstream`.
        @inlinable
        public init(upstream: Upstream) {
            multicast = Publishers.Multicast(upstream: upstream, createSubject: { PassthroughSubject() })
        }

        /// Attaches `subscriber`; it receives events once the publisher is connected.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            multicast.subscribe(subscriber)
        }

        /// Subscribes to the upstream, starting the flow of events. Cancel the result to
        /// disconnect.
        @inlinable
        public func connect() -> any Cancellable {
            multicast.connect()
        }
    }
}

extension Publisher where Self.Failure == Never {
    /// Wraps this publisher so that it starts only when `connect()` is called, letting several
    /// subscribers attach first.
    ///
    /// ```swift
    /// let connectable = Just("woot").makeConnectable()
    /// connectable.sink { print($0) }.store(in: &cancellables)   // nothing yet
    /// connectable.connect().store(in: &cancellables)            // prints "woot"
    /// ```
    @inlinable
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}
