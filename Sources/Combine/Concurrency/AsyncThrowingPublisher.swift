/// A publisher's values as a throwing `AsyncSequence`, for `for try await` loops; what
/// `values` returns when the publisher can fail.
///
/// It behaves like ``AsyncPublisher`` (one value requested per `next()`, subscription made with
/// the iterator, cancelled with the task or when the iterator is discarded), and in addition
/// rethrows the upstream's failure from `next()`. After the failure has been thrown once, further
/// calls return `nil`.
///
/// Cancelling the task ends the loop normally (`next()` returns `nil`); it does not throw
/// `CancellationError`, so a cancelled loop and a finished one look the same to the loop body.
///
/// ```swift
/// do {
///     for try await page in pages.values {
///         render(page)
///     }
/// } catch {
///     showError(error)
/// }
/// ```
public struct AsyncThrowingPublisher<P>: AsyncSequence where P: Publisher {
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
    public func makeAsyncIterator() -> AsyncThrowingPublisher<P>.Iterator {
        Iterator(publisher)
    }

    /// Reads values one at a time from a subscription to the upstream, and throws its failure.
    ///
    /// Copies of an iterator read from the same subscription. Several ``next()`` calls may wait at
    /// once: each requests one value, values go to the calls in the order they were made, and when
    /// the upstream completes every waiting call returns (the oldest gets the completion). Cancelling the task of any
    /// waiting call cancels the subscription and ends every waiting call with `nil`.
    public struct Iterator: AsyncIteratorProtocol {
        /// The values the upstream publishes.
        public typealias Element = P.Output

        @usableFromInline
        let lifetime: AsyncPublisherIteratorLifetime<P.Output, P.Failure>

        @inlinable
        init(_ publisher: P) {
            let inner = AsyncPublisherInner<P.Output, P.Failure>()
            lifetime = AsyncPublisherIteratorLifetime(inner)
            publisher.subscribe(inner)
        }

        /// Requests one value and waits for it.
        ///
        /// - Returns: the next value, or `nil` once the upstream has finished or the calling task
        ///   has been cancelled (cancellation also cancels the subscription).
        /// - Throws: the upstream's failure, once.
        @inlinable
        public mutating func next() async throws -> P.Output? {
            try await lifetime.inner.next().get()
        }
    }
}

extension AsyncThrowingPublisher: Sendable where P: Sendable {}

extension Publisher {
    /// The publisher's values as a throwing `AsyncSequence`, for `for try await` loops.
    ///
    /// Each step of the loop requests one value; the upstream's failure is thrown from the loop.
    /// See ``AsyncThrowingPublisher`` for how demand and cancellation work.
    @inlinable
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}
