#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Publishers {
    /// A publisher that stops the process in the debugger (raises `SIGTRAP`) when one of its
    /// predicates returns `true` for an event passing through it.
    ///
    /// Without a debugger attached, `SIGTRAP` ends the process, so keep breakpoints out of
    /// shipping code. Cancellation cannot be intercepted; use `handleEvents` for that.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        /// The upstream's values, each checked by `receiveOutput` before the subscriber gets it.
        public typealias Output = Upstream.Output

        /// Failures pass through unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are examined.
        public let upstream: Upstream

        /// Decides, for the upstream's subscription, whether to stop.
        public let receiveSubscription: ((any Subscription) -> Bool)?

        /// Decides, for each value, whether to stop.
        public let receiveOutput: ((Upstream.Output) -> Bool)?

        /// Decides, for the completion, whether to stop.
        public let receiveCompletion: ((Subscribers.Completion<Publishers.Breakpoint<Upstream>.Failure>) -> Bool)?

        /// Makes a publisher that raises `SIGTRAP` when a given predicate returns `true`.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Publishers.Breakpoint<Upstream>.Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Attaches `subscriber` through a stage that evaluates the predicates.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicates: self))
        }
    }
}

extension Publisher {
    /// Raises `SIGTRAP`, stopping in the debugger, when one of the predicates returns `true`.
    ///
    /// ```swift
    /// numbers.breakpoint(receiveOutput: { value in value > 10 && value < 15 })
    /// ```
    @inlinable
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Self.Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Self.Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Raises `SIGTRAP`, stopping in the debugger, when the upstream fails.
    @inlinable
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { return true }
            return false
        })
    }
}

extension Publishers.Breakpoint {
    /// The examining stage; shows itself as `Breakpoint`. Like Apple's, it keeps no state: the
    /// predicates see every event, extra subscriptions and events after a completion included,
    /// and the upstream's subscription goes downstream untouched.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: StatelessStage
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let receiveSubscription: ((any Subscription) -> Bool)?
        @usableFromInline let receiveOutput: ((Upstream.Output) -> Bool)?
        @usableFromInline let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, predicates: Publishers.Breakpoint<Upstream>) {
            self.downstream = downstream
            receiveSubscription = predicates.receiveSubscription
            receiveOutput = predicates.receiveOutput
            receiveCompletion = predicates.receiveCompletion
        }

        /// Stops in the debugger. Out of line so the trap's frame is easy to recognise.
        @usableFromInline
        @inline(never)
        static func trap() {
            raise(SIGTRAP)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            if receiveSubscription?(subscription) == true { Self.trap() }
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if receiveOutput?(input) == true { Self.trap() }
            return downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if receiveCompletion?(completion) == true { Self.trap() }
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "Breakpoint" }
    }
}
