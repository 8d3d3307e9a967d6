extension Result {
    /// A publisher that sends a result's success value once and finishes, or fails with its
    /// failure.
    public struct Publisher: Combine.Publisher {
        /// The success type.
        public typealias Output = Success

        /// The result every subscriber receives.
        public let result: Result<Success, Failure>

        /// Makes a publisher of `result`.
        @inlinable
        public init(_ result: Result<Output, Failure>) {
            self.result = result
        }

        /// Makes a publisher that sends `output` and finishes.
        @inlinable
        public init(_ output: Output) {
            self.init(.success(output))
        }

        /// Makes a publisher that fails with `failure`.
        @inlinable
        public init(_ failure: Failure) {
            self.init(.failure(failure))
        }

        /// Sends the success value on first demand and finishes, or fails at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let value):
                subscriber.receive(subscription: OneValueSubscription(name: "Once", value: value, downstream: subscriber))
            case .failure(let error):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(error))
            }
        }
    }

    /// A publisher of this result: the success value and `.finished`, or the failure.
    @inlinable
    public var publisher: Result<Success, Failure>.Publisher {
        Publisher(self)
    }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable, Failure: Sendable {}
