import TributaryLocks

extension Publishers {
    /// A publisher that decodes each value of its upstream (for example `Data`) into `Output`
    /// with a top-level decoder (such as `JSONDecoder`), failing with the decoder's error if
    /// one value cannot be decoded.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// Any error: the upstream's, or the decoder's.
        public typealias Failure = any Error

        /// The publisher whose values are decoded.
        public let upstream: Upstream

        @usableFromInline
        let decoder: Coder

        /// Makes a publisher that decodes the values of `upstream` with `decoder`.
        @inlinable
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Attaches `subscriber` through the decoding stage.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(CodingStage<DecodeStep<Output, Coder>, Upstream.Failure, S>(
                downstream: subscriber, step: DecodeStep(decoder: decoder)))
        }
    }
}

extension Publisher {
    /// Decodes each value into `type` with `decoder`; a value that fails to decode ends the
    /// stream with the decoder's error and cancels the upstream.
    ///
    /// ```swift
    /// responses
    ///     .map(\.data)
    ///     .decode(type: User.self, decoder: JSONDecoder())
    /// ```
    @inlinable
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type,
        decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Self.Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

// Sendable when everything it stores is.
extension Publishers.Decode: Sendable where Upstream: Sendable, Coder: Sendable {}
