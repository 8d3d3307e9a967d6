import Synchronization

import TributaryLocks

/// A property wrapper that makes a class property observable: `$property` is a publisher of its
/// values.
///
/// Subscribing to `$property` delivers the current value first (on the subscriber's first demand),
/// then every new value. New values are published in `willSet`: subscribers receive the new value
/// while the property still holds the old one. In a class that conforms to ``ObservableObject``,
/// each change also fires `objectWillChange` first.
///
/// Reading the property takes no lock, and a set that finds nobody else delivering costs two
/// compare-and-swaps on top of `objectWillChange`'s. A subscriber that arrives while another
/// thread's set is being delivered receives, as its first value, the value that set stores, right
/// after that delivery.
///
/// `@Published` is only available on properties of classes, as on Apple's platforms.
@propertyWrapper
public struct Published<Value> {
    /// The property's value and subscribers: the published subject every subscriber of
    /// `$property` is attached to.
    @usableFromInline
    var storage: PublishedSubject<Value>

    /// Makes the property with its initial value; written by the compiler for
    /// `@Published var x = value`.
    @inlinable
    public init(wrappedValue: Value) {
        storage = PublishedSubject(wrappedValue)
    }

    /// Makes the property with its initial value. Prefer `@Published var x = value`.
    @inlinable
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// Unavailable: `@Published` only works on class properties, through the enclosing instance.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The publisher of the property's values, `$property`. It is settable so that
    /// `assign(to: &$property)` can attach a stream to it; setting it to another property's
    /// publisher (`a.$value = b.$value`) changes nothing, neither the value nor the subscribers,
    /// as on Apple's platforms.
    public var projectedValue: Publisher {
        mutating get { Publisher(storage: storage) }
        set {}
    }

    /// Reads and writes the property of a class instance; writing publishes first.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].storage.currentValue }
        set { object[keyPath: storageKeyPath].storage.publish(newValue) }
    }
}

extension Published {
    /// The publisher of a `@Published` property, reached as `$property`.
    ///
    /// It never fails and never completes: it lives as long as the property does.
    public struct Publisher: Combine.Publisher {
        /// The property's type.
        public typealias Output = Value

        /// It never fails.
        public typealias Failure = Never

        @usableFromInline
        let storage: PublishedSubject<Value>

        @inlinable
        init(storage: PublishedSubject<Value>) {
            self.storage = storage
        }

        /// Attaches `subscriber`; it receives the current value on its first demand, then changes.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Value == S.Input, S.Failure == Never {
            // Through `subscribe(_:)`, like every operator's attach, so that an enabled
            // `_Introspection` handler sees the subject's attach too, under Apple's name.
            storage.subscribe(subscriber)
        }
    }
}

// `$property` holds only the property's storage, whose state is guarded by its lock; handing it
// to another task hands the values there too, so it is `Sendable` when they are.
extension Published.Publisher: Sendable where Value: Sendable {}

extension Publisher where Failure == Never {
    /// Republishes every value through a `@Published` property: `publisher.assign(to: &$value)`.
    ///
    /// The subscription is owned by the property's storage and ends when the object that holds the
    /// property is deallocated, so there is no `AnyCancellable` to keep and no retain cycle, even
    /// when the publisher is derived from the same object.
    @inlinable
    public func assign(to published: inout Published<Output>.Publisher) {
        subscribe(published.storage.makeAssignment())
    }
}

/// The shared state behind one `@Published` property, and the publisher `$property` attaches its
/// subscribers to (as Apple's, whose subscriptions name it as their `parent` and `subject`): the
/// value, its subscribers, the enclosing object's `objectWillChange` publisher once someone has
/// asked for it (kept by the superclass, which does not depend on `Value`), and the subscriptions
/// made by `assign(to:)`, which die with it.
@usableFromInline
final class PublishedSubject<Value>: PublishedObjectWillChangeSlot, Publisher, @unchecked Sendable {
    // @unchecked Sendable: the value and the subscribers are in `dispatcher`, which guards
    // them; `objectWillChange` is an atomic reference, set at most once.

    @usableFromInline typealias Output = Value
    @usableFromInline typealias Failure = Never

    @usableFromInline
    typealias Dispatcher = SubjectDispatcher<Value, Never>

    /// The subscribers, and the value, kept outside the mutex and stored after each delivery
    /// (`willSet` order), like a CurrentValueSubject's. The mutex guards the subscriptions
    /// made by `assign(to:)`.
    @usableFromInline
    let dispatcher: Dispatcher

    @inlinable
    init(_ value: Value) {
        dispatcher = Dispatcher(
            name: "PublishedSubject", sendsWithoutLock: true, currentValue: value, storesAfterDelivery: true)
        super.init()
    }

    @inlinable
    var currentValue: Value {
        dispatcher.readCurrent()
    }

    /// `objectWillChange` first, then the subscribers, then the stored value (willSet order).
    @inlinable
    func publish(_ value: Value) {
        objectWillChange.load(ordering: .acquiring)?._withUnsafeGuaranteedRef { $0.send() }
        dispatcher.sendThenStore(value)
    }

    /// Attaches `subscriber`; it receives the current value on its first demand, then changes.
    @inlinable
    final func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        dispatcher.subscribe(subscriber, parent: self)
    }

    /// The sink that `assign(to:)` subscribes with, already kept by this storage: it republishes
    /// each value here and holds the storage weakly, so it dies with the enclosing object.
    ///
    /// Made here rather than in `assign(to:)`, and never inlined, so that a user's build compiles
    /// it (and the sink's value closure) once per property type, not once per publisher that is
    /// assigned to a property.
    @inlinable @inline(never)
    func makeAssignment() -> Subscribers.Sink<Value, Never> {
        let sink = Subscribers.Sink<Value, Never>(
            receiveCompletion: { _ in },
            receiveValue: { [weak self] value in self?.publish(value) })
        keep(AnyCancellable(sink))
        return sink
    }

    @usableFromInline
    func keep(_ assignment: AnyCancellable) {
        dispatcher.keep(assignment)
    }
}

/// The part of a `@Published` property's storage that is the same whatever the property's type:
/// the enclosing object's `objectWillChange` publisher. The default `objectWillChange` of an
/// ``ObservableObject`` reaches it knowing only where in the object the property lies (see
/// `PublishedFieldLayout`), without knowing the property's type.
@usableFromInline
class PublishedObjectWillChangeSlot {
    /// The enclosing object's `objectWillChange` publisher, once someone has asked for it:
    /// retained by hand when it is installed, released in `deinit`. Set once and never
    /// replaced, so a setter reads it with one atomic load and calls it without retaining it.
    /// (The standard library's `AtomicLazyReference` would do the same, but its `load()` is not
    /// inlinable, which makes every set dearer: Benchmarks/README.md, "What a `@Published` set
    /// costs", row 9.) `final`, so that
    /// the subclass reads it at its offset rather than through an accessor.
    @usableFromInline
    final let objectWillChange = Atomic<Unmanaged<ObservableObjectPublisher>?>(nil)

    @usableFromInline
    init() {}

    deinit {
        objectWillChange.load(ordering: .acquiring)?.release()
    }

    /// Installs `candidate` as the enclosing object's `objectWillChange` unless one is
    /// installed already; returns the one in place.
    @usableFromInline
    final func installObjectWillChange(_ candidate: ObservableObjectPublisher) -> ObservableObjectPublisher {
        let retained = Unmanaged.passRetained(candidate)
        let (installed, existing) = objectWillChange.compareExchange(
            expected: nil, desired: retained, ordering: .acquiringAndReleasing)
        guard !installed, let existing else { return candidate }
        retained.release()
        return existing.takeUnretainedValue()
    }

    @usableFromInline
    final var installedObjectWillChange: ObservableObjectPublisher? {
        objectWillChange.load(ordering: .acquiring)?.takeUnretainedValue()
    }
}

/// Marks `Published` whatever its value's type: the default `objectWillChange` looks for
/// properties of a conforming type among an object's stored properties (see
/// `PublishedFieldLayout`).
protocol ObservableObjectPublishedField {}

extension Published: ObservableObjectPublishedField {}
