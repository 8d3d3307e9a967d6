import TributaryLocks

extension Publishers {
    /// A publisher that encodes each value of its upstream with a top-level encoder (such as
    /// `JSONEncoder`), failing with the encoder's error if one value cannot be encoded.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        /// The encoder's output, for example `Data`.
        public typealias Output = Coder.Output

        /// Any error: the upstream's, or the encoder's.
        public typealias Failure = any Error

        /// The publisher whose values are encoded.
        public let upstream: Upstream

        @usableFromInline
        let encoder: Coder

        /// Makes a publisher that encodes the values of `upstream` with `encoder`.
        @inlinable
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Attaches `subscriber` through the encoding stage.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Coder.Output, S.Failure == any Error {
            upstream.subscribe(CodingStage<EncodeStep<Upstream.Output, Coder>, Upstream.Failure, S>(
                downstream: subscriber, step: EncodeStep(encoder: encoder)))
        }
    }
}

extension Publisher {
    /// Encodes each value with `encoder`; a value that fails to encode ends the stream with the
    /// encoder's error and cancels the upstream.
    ///
    /// ```swift
    /// users.encode(encoder: JSONEncoder())   // Publisher<Data, Error>
    /// ```
    @inlinable
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

// Sendable when everything it stores is.
extension Publishers.Encode: Sendable where Upstream: Sendable, Coder: Sendable {}
