import TributaryLocks

/// Where a class keeps its `@Published` properties: their byte offsets in an instance, its
/// superclasses' properties included, in declaration order from the root class down. Found once
/// per class from the runtime's field metadata (the standard library's `_forEachField`, the
/// walk `Mirror` itself is built on) and cached, so that the default `objectWillChange` reads
/// each property's storage straight out of the object. Building a `Mirror` of the object on every
/// access instead cost about 20,000 instructions and eight allocations per
/// `objectWillChange.send()`.
///
/// Reading a reference out of the object's memory at an offset is an unsafe technique, kept for its
/// measured gain (see the benchmark notes, row 9b); a debug build checks, for each property
/// found, that the runtime lays `Published` out as that read expects (``holdsOneSlot(_:)``).
enum PublishedFieldLayout {
    /// The offsets found so far, by class.
    private static let offsetsByClass = LockedState<[ObjectIdentifier: [Int]]>([:])

    /// The offsets of the `@Published` properties of instances of `type`. Empty for a class
    /// without any, and for one whose fields the runtime cannot list at all (its reflection
    /// metadata stripped), where a `Mirror` finds no properties either.
    static func offsets(in type: AnyObject.Type) -> [Int] {
        let key = ObjectIdentifier(type)
        if let known = offsetsByClass.withLock({ $0[key] }) {
            return known
        }
        let published = StoredFields.of(type, asClass: true).filter { $0.type is any ObservableObjectPublishedField.Type }
        for field in published {
            assert(
                holdsOneSlot(field.type),
                "ObservableObject.objectWillChange: \(field.type) is no longer one reference to its storage")
        }
        let offsets = published.map(\.offset)
        offsetsByClass.withLock { $0[key] = offsets }
        return offsets
    }

    /// Whether the runtime lays out `wrapper` (a `Published<Value>`) as ``slot(in:at:)`` reads it:
    /// one word, holding its one stored property, a reference to a `PublishedObjectWillChangeSlot`.
    /// Checked in debug builds for every `@Published` property found.
    static func holdsOneSlot(_ wrapper: Any.Type) -> Bool {
        let fields = StoredFields.of(wrapper, asClass: false)
        guard fields.count == 1, fields[0].offset == 0, fields[0].type is PublishedObjectWillChangeSlot.Type else {
            return false
        }
        func size<Wrapper>(of _: Wrapper.Type) -> Int { MemoryLayout<Wrapper>.size }
        return size(of: wrapper) == MemoryLayout<PublishedObjectWillChangeSlot>.size
    }

    /// The storage of the `@Published` property at `offset` (one of ``offsets(in:)``) in
    /// `object`. A `Published` has one stored property, its storage, a reference to a subclass
    /// of `PublishedObjectWillChangeSlot` whatever the value's type; so the word at that offset is
    /// a reference to the slot, read (and retained) as such.
    static func slot(in object: AnyObject, at offset: Int) -> PublishedObjectWillChangeSlot {
        UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            .load(fromByteOffset: offset, as: PublishedObjectWillChangeSlot.self)
    }
}
