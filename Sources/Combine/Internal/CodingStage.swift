import TributaryLocks

/// What `decode(type:decoder:)` or `encode(encoder:)` does to one value.
@usableFromInline
protocol CodingStep {
    associatedtype Input
    associatedtype Output

    /// `"Decode"` or `"Encode"`, the stage's `description`.
    static var operatorName: String { get }

    /// The coded value, or the coder's error, which ends the stream.
    func code(_ input: Input) throws -> Output
}

/// `decode(type:decoder:)`: decodes each value into `Item` with a top-level decoder.
@usableFromInline
struct DecodeStep<Item: Decodable, Coder: TopLevelDecoder>: CodingStep {
    @usableFromInline let decoder: Coder

    @inlinable init(decoder: Coder) { self.decoder = decoder }

    @usableFromInline static var operatorName: String { "Decode" }

    @inlinable
    func code(_ input: Coder.Input) throws -> Item { try decoder.decode(Item.self, from: input) }
}

/// `encode(encoder:)`: encodes each value with a top-level encoder.
@usableFromInline
struct EncodeStep<Item: Encodable, Coder: TopLevelEncoder>: CodingStep {
    @usableFromInline let encoder: Coder

    @inlinable init(encoder: Coder) { self.encoder = encoder }

    @usableFromInline static var operatorName: String { "Encode" }

    @inlinable
    func code(_ input: Item) throws -> Coder.Output { try encoder.encode(input) }
}

/// The stage of `decode` and `encode`: codes each value; the first coder error cancels the
/// upstream and ends the stream with that error. Shows itself as the operator's name.
///
/// As Apple's, it gates: after a completion (the upstream's or its own) or a cancel, values
/// return `.none` and go nowhere and completions are dropped. Events that arrive before the
/// subscription are handled as usual, and a cancel before it does nothing.
@usableFromInline
final class CodingStage<Step: CodingStep, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, ForwardsToHeldSubscription, ReflectsAsOperator
where Downstream.Input == Step.Output, Downstream.Failure == any Error {
    @usableFromInline typealias Input = Step.Input
    @usableFromInline typealias Failure = UpstreamFailure

    @usableFromInline let downstream: Downstream
    @usableFromInline let step: Step
    @usableFromInline let status = LockedState(SubscriptionStatus.awaitingSubscription)

    @inlinable
    init(downstream: Downstream, step: Step) {
        self.downstream = downstream
        self.step = step
    }

    @inlinable
    func receive(_ input: Step.Input) -> Subscribers.Demand {
        if status.withLock({ $0.isTerminal }) { return .none }
        let coded: Step.Output
        do {
            coded = try step.code(input)
        } catch {
            fail(error)
            return .none
        }
        return downstream.receive(coded)
    }

    @inlinable
    func fail(_ error: any Error) {
        let (ended, upstream) = status.withLock { status -> (Bool, (any Subscription)?) in
            if status.isTerminal { return (false, nil) }
            return (true, status.terminate())
        }
        guard ended else { return }
        upstream?.cancel()
        downstream.receive(completion: .failure(error))
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let ended = status.withLock { status -> Bool in
            if status.isTerminal { return false }
            status = .terminal
            return true
        }
        if ended { downstream.receive(completion: completion.eraseError) }
    }

    @usableFromInline var description: String { Step.operatorName }

    /// Apple's children: the subscriber, whether the stream has ended, the upstream subscription.
    @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> {
        let status = status.withLock { $0 }
        return ["downstream": downstream, "finished": status.isTerminal, "upstreamSubscription": status.subscription as Any]
    }
}
