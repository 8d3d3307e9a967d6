extension Publishers {
    /// How a buffer is filled from its upstream.
    public enum PrefetchStrategy: Equatable, Hashable {
        /// Ask the upstream for as many values as the buffer holds as soon as the subscriber
        /// connects, then keep asking for one more each time a buffered place is freed, so the
        /// buffer stays full.
        case keepFull

        /// Ask the upstream only for what the subscriber asks for (less what the buffer already
        /// holds); the buffer then only catches values sent beyond that.
        case byRequest
    }

    /// What a buffer does with a value that arrives when it is full.
    public enum BufferingStrategy<Failure: Error> {
        /// Keep the buffer as it is and discard the arriving value.
        case dropNewest

        /// Discard the oldest buffered value to make room for the arriving one.
        case dropOldest

        /// End the stream with the error the closure makes. The upstream is cancelled at once;
        /// the subscriber receives buffered values only while the demand it already has, or asks
        /// for next, lasts, then the error with no further demand needed. Values still buffered
        /// at that point are discarded. As Apple's does.
        case customError(() -> Failure)
    }

    /// A publisher that holds up to `size` values its subscriber has not asked for yet, and
    /// delivers them as demand arrives.
    ///
    /// Use it in front of a slow subscriber when the upstream produces in bursts. A normal
    /// completion is delivered after the buffered values; the upstream's failure is delivered at
    /// once and the buffered values are discarded; the `customError` strategy's error goes out as
    /// soon as the subscriber's demand runs out (see ``BufferingStrategy/customError(_:)``).
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The upstream's values, held in the buffer until the subscriber asks for them.
        public typealias Output = Upstream.Output

        /// Failures pass through; `customError` produces the same type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are buffered.
        public let upstream: Upstream

        /// The most values held at once.
        public let size: Int

        /// How values are requested from the upstream.
        public let prefetch: Publishers.PrefetchStrategy

        /// What happens to a value that arrives when `size` values are held.
        public let whenFull: Publishers.BufferingStrategy<Publishers.Buffer<Upstream>.Failure>

        /// Makes a publisher that buffers up to `size` values of `upstream`.
        @inlinable
        public init(
            upstream: Upstream,
            size: Int,
            prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Publishers.Buffer<Upstream>.Failure>
        ) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Attaches `subscriber` through a buffering stage.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

extension Publisher {
    /// Holds up to `size` values the subscriber has not asked for yet, delivering them when it
    /// does.
    ///
    /// ```swift
    /// fastProducer
    ///     .buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest)
    ///     .sink(receiveValue: slowConsumer)
    /// ```
    ///
    /// - Parameters:
    ///   - size: the most values held at once.
    ///   - prefetch: `.keepFull` to fill the buffer ahead of demand, `.byRequest` to ask the
    ///     upstream only for what the subscriber asks for.
    ///   - whenFull: what to do with a value that arrives when the buffer is full.
    @inlinable
    public func buffer(
        size: Int,
        prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Self.Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}
