/// A class whose changes can be observed as a whole: `objectWillChange` fires before any change.
///
/// Conform a class and mark its observable properties `@Published`; the default
/// ``objectWillChange`` (an ``ObservableObjectPublisher``) then fires before any of them changes,
/// private ones and those inherited from superclasses included. It says that something is about to
/// change, not what. A class may instead provide its own `objectWillChange` publisher and send it
/// by hand.
public protocol ObservableObject: AnyObject {
    /// The publisher type of ``objectWillChange``; ``ObservableObjectPublisher`` unless the class
    /// chooses another.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where Self.ObjectWillChangePublisher.Failure == Never

    /// Emits before the object changes.
    var objectWillChange: Self.ObjectWillChangePublisher { get }
}

extension ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The object's change publisher, shared by all its `@Published` properties: every access
    /// returns the same instance.
    ///
    /// The publisher is stored in the `@Published` properties' storage the first time it is asked
    /// for, so there is no table of objects and nothing outlives the object. Where those
    /// properties lie in the object (its superclasses' included) is found once per class and
    /// cached, so an access costs a look-up and a read rather than a walk over the object's
    /// properties. A class without `@Published` properties has nothing to fire it, and gets a
    /// new, silent publisher on each access, as on Apple's platforms.
    public var objectWillChange: ObservableObjectPublisher {
        // The dynamic type: a subclass's properties count when the object is seen as its superclass.
        let offsets = PublishedFieldLayout.offsets(in: type(of: self))
        guard let first = offsets.first else { return ObservableObjectPublisher() }
        let firstSlot = PublishedFieldLayout.slot(in: self, at: first)
        if let installed = firstSlot.installedObjectWillChange { return installed }
        let canonical = firstSlot.installObjectWillChange(ObservableObjectPublisher())
        for offset in offsets.dropFirst() {
            _ = PublishedFieldLayout.slot(in: self, at: offset).installObjectWillChange(canonical)
        }
        return canonical
    }
}

/// The publisher behind the default `objectWillChange`: it sends `Void` when ``send()`` is called,
/// never fails and never completes.
///
/// Thread safety and delivery order are those of ``PassthroughSubject``.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
    // @unchecked Sendable: the subscriber list and the emitter role are in `dispatcher`, which
    // guards them (see SubjectDispatcher).

    /// It sends `Void`: only the fact of a change.
    public typealias Output = Void

    /// It never fails.
    public typealias Failure = Never

    @usableFromInline
    typealias Dispatcher = SubjectDispatcher<Void, Never>

    @usableFromInline
    let dispatcher: Dispatcher

    /// Makes a publisher with no subscribers.
    @inlinable
    public init() {
        // In the body rather than as the property's initial value, so that a caller's module
        // specialises it, with the dispatcher's job runner.
        dispatcher = Dispatcher(name: "ObservableObjectPublisher", sendsWithoutLock: true, opensOnFirstRequest: true)
    }

    /// Attaches `subscriber`; it receives a `Void` for each later ``send()`` while it has demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        dispatcher.subscribe(subscriber, parent: self)
    }

    /// Tells the subscribers that the object is about to change.
    @inlinable
    public func send() {
        dispatcher.send(())
    }
}
