// `@unchecked`: every change of the sink's state is a compare-and-exchange on its atomic `state`,
// whose winner alone touches the stored subscription, so `cancel()` may come from any thread. Its
// two closures are called only by the upstream, one call at a time, as Combine's contract requires
// of every subscriber, and are replaced only once nobody is counted as calling or reading them.
extension Subscribers.Sink: @unchecked Sendable {}
