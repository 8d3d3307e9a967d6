/// What `combineLatest` and `zip` (2, 3 and 4 inputs) share: upstreams of different output types
/// whose values are stored per input and turned into tuples.
///
/// The per-input storage and the rule that makes tuples differ between the two operators and are
/// described by a ``FanInCombineStorage``. Their demand protocols differ too, so each has its own
/// engine: ``FanInCombineStateMachine`` for `combineLatest`, ``ZipStateMachine`` for `zip`.
/// Both fail on the first failure and cancel the upstreams; `combineLatest` finishes once every
/// upstream has finished, `zip` as soon as an upstream has finished and none of its values is left
/// to pair.
@usableFromInline
protocol FanInCombineStorage {
    /// The tuple delivered downstream.
    associatedtype Output

    /// Empty storage: no input has sent anything.
    init()

    /// `true` for zip (values pair one to one, and are kept until paired), `false` for
    /// combineLatest (one tuple per arriving value, made from the latest value of every input).
    /// It decides when the inputs that have finished leave nothing to combine (``isExhausted``).
    static var pairsStrictly: Bool { get }

    /// The subscription's `description`, as Apple prints it.
    static var subscriptionDescription: String { get }

    /// The next tuple, if every input can contribute one; zip consumes what it uses.
    mutating func takeOutput() -> Output?

    /// Whether input `index` has nothing stored (only meaningful for zip).
    func isEmpty(at index: Int) -> Bool

    /// Releases every stored value.
    mutating func removeAll()
}

extension FanInCombineStorage {
    /// Whether no further tuple can be made now that some inputs have finished (`unfinished` of
    /// `arity` are still running; `isFinished` says which have finished). A zip can make none once
    /// a finished input has no value left to pair; a combineLatest still makes one for every value
    /// of a running input, so it is exhausted only when every input has finished.
    @inlinable
    func isExhausted(arity: Int, unfinished: Int, isFinished: (Int) -> Bool) -> Bool {
        guard Self.pairsStrictly else { return unfinished == 0 }
        return (0..<arity).contains { isFinished($0) && isEmpty(at: $0) }
    }
}

/// One input of a `combineLatest` or a `zip`: its position and where its values go in the
/// storage. A type rather than a closure, so that storing a value is a plain assignment (or
/// append) in the specialised code instead of a call through a closure and its reabstraction
/// thunk.
@usableFromInline
protocol FanInCombineInput {
    /// The storage the input's values go into.
    associatedtype Storage: FanInCombineStorage

    /// What the input's upstream sends.
    associatedtype Value

    /// The input's position, in declaration order.
    static var index: Int { get }

    /// Keeps `value` in the input's place: its latest (combineLatest), or last in its queue (zip).
    static func store(_ value: Value, in storage: inout Storage)
}

/// The subscription of a `combineLatest` or a `zip`, which takes each input's events along a
/// ``FanInRoute``: the input's type says which slot the event belongs to and where its values go.
@usableFromInline
protocol FanInEventReceiver: AnyObject {
    /// The storage of the inputs' values.
    associatedtype Storage: FanInCombineStorage
    /// How the inputs fail.
    associatedtype InputFailure: Error

    func receive(subscription: any Subscription, at index: Int)
    func receive<Input: FanInCombineInput>(_ value: Input.Value, into input: Input.Type) -> Subscribers.Demand
    where Input.Storage == Storage
    func receive(completion: Subscribers.Completion<InputFailure>, at index: Int)
}

extension FanInEventReceiver {
    /// The subscriber for `input`: a value holding this subscription and its identifier, so that
    /// subscribing allocates nothing per input. A `combineLatest` side shows the subscription's
    /// description and answers `.none` to every value; a `zip` side, like Apple's, is also a
    /// subscription of its own (a request or a cancel made on it goes to that input's upstream),
    /// has no description or mirror of its own, and `dump` shows it without an object's `#`
    /// number.
    @inlinable
    func side<Input: FanInCombineInput>(_ input: Input.Type) -> TaggedSubscriber<FanInRoute<Self, Input>>
    where Input.Storage == Storage {
        TaggedSubscriber(input, of: self)
    }
}

/// A ``FanInEventReceiver`` whose inputs' subscribers print the subscription's description, as
/// Apple's `combineLatest` sides do.
@usableFromInline
protocol DescribedFanInEventReceiver: FanInEventReceiver {}

/// A ``FanInEventReceiver`` whose inputs' subscribers are a subscription of their own, as Apple's
/// `zip` sides are: a request or a cancel made on one goes to that input's upstream alone.
@usableFromInline
protocol UpstreamFanInEventReceiver: FanInEventReceiver {
    func requestUpstream(_ demand: Subscribers.Demand, at index: Int)
    func cancelUpstream(at index: Int)
}

/// The route of one input of a `combineLatest` or a `zip`: a type with nothing stored, so the
/// subscriber is the subscription reference and its identifier alone.
@usableFromInline
struct FanInRoute<Parent: FanInEventReceiver, Slot: FanInCombineInput>: TaggedRoute
where Slot.Storage == Parent.Storage {
    @usableFromInline
    typealias Input = Slot.Value

    @usableFromInline
    typealias Failure = Parent.InputFailure

    @inlinable
    init() {}

    @inlinable
    func receive(subscription: any Subscription, parent: Parent) {
        parent.receive(subscription: subscription, at: Slot.index)
    }

    @inlinable
    func receive(_ input: Slot.Value, parent: Parent) -> Subscribers.Demand {
        parent.receive(input, into: Slot.self)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Parent.InputFailure>, parent: Parent) {
        parent.receive(completion: completion, at: Slot.index)
    }
}

extension FanInRoute: DescribedTaggedRoute where Parent: DescribedFanInEventReceiver {
    @usableFromInline
    static var subscriberDescription: String { Parent.Storage.subscriptionDescription }
}

extension FanInRoute: UpstreamTaggedRoute where Parent: UpstreamFanInEventReceiver {
    @inlinable
    func request(_ demand: Subscribers.Demand, parent: Parent) {
        parent.requestUpstream(demand, at: Slot.index)
    }

    @inlinable
    func cancel(parent: Parent) {
        parent.cancelUpstream(at: Slot.index)
    }
}

extension TaggedSubscriber {
    /// The subscriber for `parent`'s input `slot`.
    @inlinable
    init<Parent, Slot>(_ slot: Slot.Type, of parent: Parent) where Route == FanInRoute<Parent, Slot> {
        self.init(route: FanInRoute(), parent: parent)
    }
}
