/// A subscription that subscribes to several publishers through ``TaggedSubscriber``s, and is told
/// by each event's `Tag` which one sent it: `merge` (the upstream's position), `flatMap` (the
/// inner's slot and generation), `switchToLatest` (the inner's generation).
@usableFromInline
protocol TaggedEventReceiver: AnyObject {
    /// What tells the publishers apart.
    associatedtype Tag
    /// What the publishers send.
    associatedtype TaggedInput
    /// How the publishers fail.
    associatedtype TaggedFailure: Error

    /// What the tagged subscribers print: the operator's name, as Apple's do.
    static var taggedSubscriberDescription: String { get }

    func receive(subscription: any Subscription, tag: Tag)
    func receive(_ input: TaggedInput, tag: Tag) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<TaggedFailure>, tag: Tag)
}

/// A ``TaggedEventReceiver`` whose tagged subscribers also show a mirror naming the subscription
/// they belong to, and a playground description, as Apple's inner subscribers of `flatMap` and
/// `switchToLatest` do (`merge`'s sides show their description only).
@usableFromInline
protocol ReflectedTaggedEventReceiver: TaggedEventReceiver, Subscription {}

/// The subscriber an operator attaches to each of the publishers it gathers from: it forwards
/// every event to the operator's subscription with its tag. A value type holding the tag and an
/// owning reference to the subscription, so that attaching one allocates nothing.
@usableFromInline
struct TaggedSubscriber<Parent: TaggedEventReceiver>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Parent.TaggedInput
    @usableFromInline
    typealias Failure = Parent.TaggedFailure

    @usableFromInline
    let tag: Parent.Tag

    /// The operator's subscription; kept alive by this subscriber for as long as its publisher
    /// holds it.
    @usableFromInline
    let parent: Parent

    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(tag: Parent.Tag, parent: Parent) {
        self.tag = tag
        self.parent = parent
    }

    @usableFromInline
    var description: String { Parent.taggedSubscriberDescription }

    @inlinable
    func receive(subscription: any Subscription) {
        parent.receive(subscription: subscription, tag: tag)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        parent.receive(input, tag: tag)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        parent.receive(completion: completion, tag: tag)
    }
}

extension TaggedSubscriber: CustomReflectable, CustomPlaygroundDisplayConvertible
where Parent: ReflectedTaggedEventReceiver {
    /// Shows which subscription the subscriber belongs to.
    @usableFromInline
    var customMirror: Mirror {
        Mirror(self, children: ["parentSubscription": parent.combineIdentifier])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
