/// Stands in for a subscriber attached while an ``_Introspection`` handler was enabled: reports
/// each subscription, value and completion before and after passing it on, and wraps the
/// subscription in an ``IntrospectedSubscription`` so demand and cancellation are reported too.
///
/// Its identifier and description are the watched subscriber's; like Apple's wrapper it is
/// `CustomStringConvertible` and nothing more (no mirror or playground description of its own).
/// Each event reads the enabled handlers afresh (so `disable()` silences running pipelines) and
/// tells the same ones before and after; a subscription is wrapped even with no handler left, as
/// Apple's wrapper keeps doing once attached.
struct IntrospectedSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible, IntrospectionWatched {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let downstream: Downstream

    init(_ downstream: Downstream) {
        self.downstream = downstream
    }

    var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
    var description: String { String(describing: downstream) }

    func receive(subscription: Subscription) {
        let handlers = IntrospectionRegistry.current
        for handler in handlers { handler.willReceive(subscriber: downstream, subscription: subscription) }
        // A subscription handed through by an operator (map, filter, …) is already watched, and
        // watching it twice would report each of its requests and cancels twice.
        let watched = subscription is IntrospectedSubscription ? subscription : IntrospectedSubscription(subscription)
        downstream.receive(subscription: watched)
        for handler in handlers { handler.didReceive(subscriber: downstream, subscription: subscription) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let handlers = IntrospectionRegistry.current
        if handlers.isEmpty { return downstream.receive(input) }
        for handler in handlers { handler.willReceive(subscriber: downstream, input: input) }
        let demand = downstream.receive(input)
        for handler in handlers { handler.didReceive(subscriber: downstream, input: input, resultingDemand: demand) }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let handlers = IntrospectionRegistry.current
        if handlers.isEmpty {
            downstream.receive(completion: completion)
            return
        }
        for handler in handlers { handler.willReceive(subscriber: downstream, completion: completion) }
        downstream.receive(completion: completion)
        for handler in handlers { handler.didReceive(subscriber: downstream, completion: completion) }
    }
}

/// Marks a subscriber that is already watched, so that a publisher passing it on to another
/// (`Deferred`, `share()`, …) reports that attach without watching it a second time.
protocol IntrospectionWatched {}

/// Stands in for a subscription handed to a watched subscriber: reports each `request(_:)` and
/// `cancel()` before and after passing it on. Its identifier and description are the wrapped
/// subscription's; like Apple's wrapper it is `CustomStringConvertible` and nothing more.
final class IntrospectedSubscription: Subscription, CustomStringConvertible {
    let upstream: any Subscription

    init(_ upstream: any Subscription) {
        self.upstream = upstream
    }

    var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }
    var description: String { String(describing: upstream) }

    func request(_ demand: Subscribers.Demand) {
        let handlers = IntrospectionRegistry.current
        for handler in handlers { handler.willRequest(subscription: upstream, demand) }
        upstream.request(demand)
        for handler in handlers { handler.didRequest(subscription: upstream, demand) }
    }

    func cancel() {
        let handlers = IntrospectionRegistry.current
        for handler in handlers { handler.willCancel(subscription: upstream) }
        upstream.cancel()
        for handler in handlers { handler.didCancel(subscription: upstream) }
    }
}
