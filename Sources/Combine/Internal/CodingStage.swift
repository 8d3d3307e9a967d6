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
@usableFromInline
final class CodingStage<Step: CodingStep, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, RelayStage, ReflectsAsOperator
where Downstream.Input == Step.Output, Downstream.Failure == any Error {
    @usableFromInline typealias Input = Step.Input
    @usableFromInline typealias Failure = UpstreamFailure

    @usableFromInline let downstream: Downstream
    @usableFromInline let step: Step
    @usableFromInline let status = LockedState(SubscriptionStatus.awaitingSubscription)
    /// Set once a coding error ended the stream. Only read and written by the upstream's
    /// serialized `receive` calls, so it needs no lock.
    @usableFromInline var failed = false

    @usableFromInline
    init(downstream: Downstream, step: Step) {
        self.downstream = downstream
        self.step = step
    }

    @usableFromInline
    func receive(subscription: any Subscription) {
        guard acceptUpstream(subscription) else { return }
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Step.Input) -> Subscribers.Demand {
        if failed { return .none }
        let coded: Step.Output
        do {
            coded = try step.code(input)
        } catch {
            fail(error)
            return .none
        }
        return downstream.receive(coded)
    }

    @usableFromInline
    func fail(_ error: any Error) {
        failed = true
        guard let upstream = status.withLock({ $0.terminate() }) else { return }
        upstream.cancel()
        downstream.receive(completion: .failure(error))
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        if endUpstream() { downstream.receive(completion: completion.eraseError) }
    }

    @usableFromInline static var operatorName: String { Step.operatorName }

    @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> { ["downstream": downstream] }
}
