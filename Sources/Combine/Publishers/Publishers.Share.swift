extension Publishers {
    /// A publisher shared among all its subscribers: the upstream is subscribed to once, when
    /// the first subscriber attaches, and its events go to every subscriber attached at the time.
    ///
    /// It is a class, so every copy of a reference is the same shared publisher, and two
    /// `Share` values are equal only when they are the same instance. It behaves like
    /// `multicast { PassthroughSubject() }.autoconnect()`: a late subscriber misses the values
    /// sent before it attached but receives the completion; when every subscriber has
    /// cancelled, the upstream is cancelled, and the next subscriber subscribes to it again.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        /// The upstream's values, sent to every current subscriber.
        public typealias Output = Upstream.Output

        /// Failures pass through unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher being shared.
        public final let upstream: Upstream

        @usableFromInline
        let shared: Publishers.Autoconnect<Publishers.Multicast<Upstream, PassthroughSubject<Upstream.Output, Upstream.Failure>>>

        /// Makes a shared publisher over `upstream`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
            shared = Publishers.Multicast(upstream: upstream, createSubject: { PassthroughSubject() }).autoconnect()
        }

        /// Attaches `subscriber` to the shared stream, connecting the upstream if it is the
        /// first.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            shared.subscribe(subscriber)
        }

        /// Whether `lhs` and `rhs` are the same shared publisher.
        public static func == (lhs: Publishers.Share<Upstream>, rhs: Publishers.Share<Upstream>) -> Bool {
            lhs === rhs
        }
    }
}

extension Publisher {
    /// Shares this publisher among all subscribers: the work (a network request, say) runs
    /// once, when the first subscriber attaches, and every attached subscriber gets its results.
    ///
    /// ```swift
    /// let shared = dataTaskPublisher.map(\.data).share()
    /// shared.sink { print("subscription1 received: '\($0)'") }.store(in: &cancellables)
    /// shared.sink { print("subscription2 received: '\($0)'") }.store(in: &cancellables)
    /// ```
    ///
    /// Nothing is replayed: a subscriber that attaches late misses earlier values.
    @inlinable
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

// `@unchecked`: both stored properties are immutable; the shared stage is an `Autoconnect` over a
// `Multicast` whose mutable state is guarded by their locks (a subject made twice by a connection
// race is settled under the lock, one result kept), and its subject factory only builds a
// `PassthroughSubject`.
extension Publishers.Share: @unchecked Sendable where Upstream: Sendable {}
