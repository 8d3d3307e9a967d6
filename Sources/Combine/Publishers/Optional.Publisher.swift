extension Optional {
    /// A publisher that sends the optional's value once and finishes, or just finishes when the
    /// optional is `nil`.
    ///
    /// Unlike `Just`, it may send nothing. It cannot fail.
    public struct Publisher: Combine.Publisher {
        /// The wrapped type.
        public typealias Output = Wrapped

        /// It cannot fail.
        public typealias Failure = Never

        /// The value to send, if any.
        public let output: Wrapped?

        /// Makes a publisher of `output`, which may be `nil`.
        @inlinable
        public init(_ output: Wrapped?) {
            self.output = output
        }

        /// Sends the value on first demand then finishes; finishes at once when there is none.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            if let output {
                subscriber.receive(subscription: OneValueSubscription(name: "Optional", value: output, downstream: subscriber))
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }

    /// A publisher of this optional's value: one value and `.finished`, or only `.finished` when it
    /// is `nil`.
    @inlinable
    public var publisher: Optional<Wrapped>.Publisher {
        Publisher(self)
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}
