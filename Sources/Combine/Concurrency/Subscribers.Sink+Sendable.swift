// `@unchecked`: every change of the sink's state is a compare-and-exchange on its atomic `phase`,
// whose winner alone touches the stored subscription, so `cancel()` may come from any thread; its
// two closures are immutable and are called only by the upstream, one call at a time, as Combine's
// contract requires of every subscriber.
extension Subscribers.Sink: @unchecked Sendable {}
