import Combine
import Observation

/// A publisher of a property of an `@Observable` object: its current value on subscription, then
/// its value after each change, read on a scheduler you choose.
///
/// Make one with ``Observation/Observable/publisher(for:on:options:)``:
///
/// ```swift
/// @Observable final class SearchModel {
///     var query = ""
/// }
///
/// model.publisher(for: \.query, on: DispatchQueue.main)
///     .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
///     .sink { search($0) }
/// ```
///
/// ## Values
///
/// The subscriber first gets the value the property has when it subscribes, read on the
/// subscribing thread. After that, each change of the property makes the publisher read it again
/// on `scheduler` and send what it reads: the value *after* the change. This is the opposite of
/// `@Published`, whose `$property` sends the new value from the property's `willSet`, before the
/// property holds it.
///
/// The Observation framework reports a change only from inside the property's `willSet`, once per
/// installed tracking, and offers no public notice after the value is stored. The publisher
/// therefore hands the read to the scheduler, and the read installs the next tracking. Every change
/// made between a report and the read it causes comes out as one value: several assignments in one
/// turn of the scheduler's queue or run loop, or to several properties that the key path reads (a
/// computed property such as `fullName` reads `first` and `last`), give one value. That is the
/// transaction `Observations` draws at the isolation's next suspension, with the scheduler in the
/// place of the actor.
///
/// A property assigned a value equal to its current one (for `Equatable` types) notifies no one,
/// so nothing is sent; `@Published` sends every assignment.
///
/// ## Choosing the scheduler
///
/// Pass the scheduler the model is changed on: `DispatchQueue.main` or `RunLoop.main` for a model
/// that belongs to the main thread or the main actor, the serial queue that owns the model
/// otherwise, a `TestScheduler` in tests. The read then runs after the change is complete, and
/// the model is never read concurrently with a change. A scheduler that runs actions at once
/// (`ImmediateScheduler`) would read the property inside its `willSet`, before the new value is
/// stored, and miss it: the subscription stops the program with a message instead.
///
/// ## Demand, threads and lifetime
///
/// The publisher is demand-driven. Without demand it keeps at most one value, and no stale one:
/// a change made while the subscriber has no demand only marks the value out of date, and the
/// read happens when demand arrives. Values go to the subscriber one at a time: on `scheduler`
/// after a read, or on the thread that calls `request(_:)` when a value was waiting for demand.
///
/// Neither the publisher nor its subscriptions keep the model alive, so a model can subscribe to
/// its own properties and keep the cancellable. A subscription finishes when a read finds the
/// model gone; a model released while nothing is pending ends nothing, it simply never changes
/// again. Cancelling stops the reads and releases the subscriber, the scheduler and the key path at
/// once. The tracking already installed in the model stays there until the model's next change
/// (the framework has no public way to remove it), holding only the cancelled subscription's
/// empty shell.
///
/// ## Why a key path
///
/// The spelling follows Combine's own `publisher(for:)` for key-value observing, which Combine
/// users already know, and the key path lets the publisher hold the model weakly: a closure over
/// `model.query` would capture the model strongly, and a model that observes itself would never be
/// released. A key path also carries no actor isolation, so a `@MainActor` model's property can be
/// published in the Swift 6 language mode; a closure read on the scheduler would have to be
/// `@Sendable` and could not touch a main-actor property. To publish an expression of several
/// properties, publish a computed property that reads them. The scheduler argument (labelled
/// `on:`) keeps the call distinct from `NSObject.publisher(for:options:)` on Apple platforms.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public struct ObservationPublisher<Object: AnyObject & Observable, Output, Context: Scheduler>: Publisher {
    /// Reading a property cannot fail.
    public typealias Failure = Never

    /// The model, held weakly: `nil` once it has been released, and then a subscriber gets
    /// `finished` at once.
    public weak let object: Object?

    /// The property read, on `object`.
    public let keyPath: KeyPath<Object, Output>

    /// Where the property is read after each change, and where those values are delivered.
    public let scheduler: Context

    /// The options passed to `scheduler` with each read.
    public let options: Context.SchedulerOptions?

    /// Publishes `object[keyPath: keyPath]`, read on `scheduler` after each change;
    /// ``Observation/Observable/publisher(for:on:options:)`` is the usual way to write this.
    public init(
        object: Object, keyPath: KeyPath<Object, Output>, scheduler: Context,
        options: Context.SchedulerOptions? = nil
    ) {
        self.object = object
        self.keyPath = keyPath
        self.scheduler = scheduler
        self.options = options
    }

    /// Reads the property (installing the tracking) on the calling thread, then hands the
    /// subscriber its subscription; the value read waits for the first demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        guard let object else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: .finished)
            return
        }
        let subscription = ObservationSubscription<Object, Context, S>(
            object: object,
            reader: .init(keyPath: keyPath, scheduler: scheduler, options: options),
            downstream: subscriber)
        subscription.start(with: object)
        subscriber.receive(subscription: subscription)
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Observable where Self: AnyObject {
    /// A publisher of the property at `keyPath`: its value now, then its value after each change,
    /// read on `scheduler`.
    ///
    /// ```swift
    /// model.publisher(for: \.query, on: DispatchQueue.main)
    ///     .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
    ///     .removeDuplicates()
    ///     .sink { search($0) }
    /// ```
    ///
    /// Pass the scheduler the model is changed on (see ``ObservationPublisher`` for why): the
    /// changes made in one turn of it come out as one value, read after they are complete. The
    /// publisher holds the model weakly.
    ///
    /// - Parameters:
    ///   - keyPath: the property, or a computed property that reads several.
    ///   - scheduler: where the property is read after each change and the value delivered.
    ///   - options: passed to `scheduler` with each read.
    public func publisher<Value, S: Scheduler>(
        for keyPath: KeyPath<Self, Value>, on scheduler: S, options: S.SchedulerOptions? = nil
    ) -> ObservationPublisher<Self, Value, S> {
        ObservationPublisher(object: self, keyPath: keyPath, scheduler: scheduler, options: options)
    }
}
