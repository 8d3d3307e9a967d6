/// Where the events of one ``TaggedSubscriber`` go: which of its parent's publishers it serves,
/// what that publisher sends, and how the parent takes each event. A route is a value kept in the
/// subscriber (`merge`'s position, `flatMap`'s slot and generation, `switchToLatest`'s
/// generation) or a type with nothing stored (``FanInRoute``: each input of `combineLatest` and
/// `zip` names its own input type and where its values go), so the parent is reached without a
/// closure on the per-value path.
///
/// `merge`, `flatMap` and `switchToLatest` each declare their own route, nested in their
/// subscription, rather than share one route generic over a protocol of the subscriptions: each
/// generic layer between the subscriber and its subscription is more conformances for the runtime
/// to look up when unspecialised code (an inner `Publishers.Sequence`) first builds the
/// subscriber's type metadata. With a shared route, `flatMap` over sequences (profile row 4) made
/// eight more lookups, 255,000 instructions, once per process.
@usableFromInline
protocol TaggedRoute {
    /// The operator's subscription, which takes the events.
    associatedtype Parent: AnyObject
    /// What this route's publisher sends; each input of `combineLatest` and `zip` has its own.
    associatedtype Input
    /// How the publishers fail.
    associatedtype Failure: Error

    func receive(subscription: any Subscription, parent: Parent)
    func receive(_ input: Input, parent: Parent) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<Failure>, parent: Parent)
}

/// A ``TaggedRoute`` whose subscribers print the operator's name, as Apple's do for `merge`,
/// `combineLatest`, `flatMap` and `switchToLatest` (`zip`'s have no description of their own).
@usableFromInline
protocol DescribedTaggedRoute: TaggedRoute {
    /// What the subscribers print.
    static var subscriberDescription: String { get }
}

/// A ``DescribedTaggedRoute`` whose subscribers also show a mirror naming the subscription they
/// belong to, and a playground description, as Apple's inner subscribers of `flatMap` and
/// `switchToLatest` do (`merge`'s and `combineLatest`'s sides show their description only).
@usableFromInline
protocol ReflectedTaggedRoute: DescribedTaggedRoute where Parent: CustomCombineIdentifierConvertible {}

/// A ``TaggedRoute`` whose subscribers are also a subscription of their own, as Apple's `zip`
/// sides are: a request or a cancel made on one goes to that route's upstream alone.
@usableFromInline
protocol UpstreamTaggedRoute: TaggedRoute {
    func request(_ demand: Subscribers.Demand, parent: Parent)
    func cancel(parent: Parent)
}

/// The subscriber an operator attaches to each of the publishers it gathers from (`merge`,
/// `combineLatest`, `zip`, the inners of `flatMap` and `switchToLatest`): it hands every event to
/// the operator's subscription along its ``TaggedRoute``. A value type holding the route and an
/// owning reference to the subscription, so that attaching one allocates nothing. Its display
/// conformances and `Subscription` come with its route, so that each operator's subscribers show
/// exactly what Apple's show.
@usableFromInline
struct TaggedSubscriber<Route: TaggedRoute>: Subscriber {
    @usableFromInline
    typealias Input = Route.Input
    @usableFromInline
    typealias Failure = Route.Failure

    @usableFromInline
    let route: Route

    /// The operator's subscription; kept alive by this subscriber for as long as its publisher
    /// holds it.
    @usableFromInline
    let parent: Route.Parent

    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(route: Route, parent: Route.Parent) {
        self.route = route
        self.parent = parent
    }

    @inlinable
    func receive(subscription: any Subscription) {
        route.receive(subscription: subscription, parent: parent)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        route.receive(input, parent: parent)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        route.receive(completion: completion, parent: parent)
    }
}

extension TaggedSubscriber: CustomStringConvertible where Route: DescribedTaggedRoute {
    @usableFromInline
    var description: String { Route.subscriberDescription }
}

extension TaggedSubscriber: CustomReflectable, CustomPlaygroundDisplayConvertible
where Route: ReflectedTaggedRoute {
    /// Shows which subscription the subscriber belongs to.
    @usableFromInline
    var customMirror: Mirror {
        Mirror(self, children: ["parentSubscription": parent.combineIdentifier])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}

extension TaggedSubscriber: Cancellable where Route: UpstreamTaggedRoute {
    @inlinable
    func cancel() {
        route.cancel(parent: parent)
    }
}

extension TaggedSubscriber: Subscription where Route: UpstreamTaggedRoute {
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        route.request(demand, parent: parent)
    }
}
