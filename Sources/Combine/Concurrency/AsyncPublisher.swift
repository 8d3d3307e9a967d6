/// A publisher's values as an `AsyncSequence`, for `for await` loops; what
/// `values` returns when the publisher cannot fail.
///
/// Each `next()` call asks the upstream for exactly one value and suspends until it arrives, so a
/// slow loop slows the publisher down instead of piling values up in memory. A publisher that
/// produces values regardless of demand (a `PassthroughSubject`) therefore drops the values it
/// sends while the loop body is running; put `buffer(size:prefetch:whenFull:)` in front of
/// `values` to keep them.
///
/// The subscription is made when the iterator is made (when the `for await` loop starts), and
/// ends in three ways: the upstream finishes (the loop ends), the task running the loop is
/// cancelled (the subscription is cancelled and the loop ends), or the iterator is discarded (the
/// loop is left with `break`, `return` or a thrown error; the subscription is cancelled).
///
/// ```swift
/// for await temperature in thermometer.readings.values {
///     display(temperature)
/// }
/// ```
public struct AsyncPublisher<P>: AsyncSequence where P: Publisher, P.Failure == Never {
    /// The values the upstream publishes.
    public typealias Element = P.Output

    @usableFromInline
    let publisher: P

    /// Wraps `publisher`; nothing subscribes until an iterator is made.
    @inlinable
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the upstream and returns the iterator that reads from that subscription.
    ///
    /// Each iterator is a subscription of its own.
    @inlinable
    public func makeAsyncIterator() -> AsyncPublisher<P>.Iterator {
        Iterator(publisher)
    }

    /// Reads values one at a time from a subscription to the upstream.
    ///
    /// Copies of an iterator read from the same subscription. Several ``next()`` calls may wait at
    /// once: each requests one value, values go to the calls in the order they were made, and when
    /// the upstream finishes every waiting call returns (the oldest gets the completion). Cancelling the task of any
    /// waiting call cancels the subscription and ends every waiting call with `nil`.
    public struct Iterator: AsyncIteratorProtocol {
        /// The values the upstream publishes.
        public typealias Element = P.Output

        @usableFromInline
        let lifetime: AsyncPublisherIteratorLifetime<P.Output, Never>

        @inlinable
        init(_ publisher: P) {
            let inner = AsyncPublisherInner<P.Output, Never>()
            lifetime = AsyncPublisherIteratorLifetime(inner)
            publisher.subscribe(inner)
        }

        /// Requests one value and waits for it.
        ///
        /// - Returns: the next value, or `nil` once the upstream has finished or the calling task
        ///   has been cancelled (cancellation also cancels the subscription).
        @inlinable
        public mutating func next() async -> P.Output? {
            switch await lifetime.inner.next() {
            case .success(let element): return element
            }
        }
    }
}

extension AsyncPublisher: Sendable where P: Sendable {}

extension Publisher where Self.Failure == Never {
    /// The publisher's values as an `AsyncSequence`, for `for await` loops.
    ///
    /// Each step of the loop requests one value; see ``AsyncPublisher`` for how demand and
    /// cancellation work.
    @inlinable
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}
