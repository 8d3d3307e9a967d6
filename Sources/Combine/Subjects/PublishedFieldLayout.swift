@_spi(Reflection) import Swift
import TributaryLocks

/// Where a class keeps its `@Published` properties: their byte offsets in an instance, its
/// superclasses' properties included, in declaration order from the root class down. Found once
/// per class from the runtime's field metadata (the standard library's `_forEachField`, the
/// walk `Mirror` itself is built on) and cached, so that the default `objectWillChange` reads
/// each property's storage straight out of the object. Building a `Mirror` of the object on every
/// access instead cost about 20,000 instructions and eight allocations per
/// `objectWillChange.send()`.
///
/// `_forEachField` is standard-library SPI (`@_spi(Reflection)`), present since Swift 5.2 and the
/// same on every platform this module builds for; using it needs no compiler flag. Reading a
/// reference out of the object's memory at an offset is an unsafe technique, kept for its
/// measured gain (see the benchmark notes, row 9b).
enum PublishedFieldLayout {
    /// `_EachFieldOptions.classType` and `.ignoreUnknown`, spelled by their values: the static
    /// properties are `var`s, which Swift 6 does not let code read without isolation. The walk
    /// takes the type as a class, whose fields (its superclasses' included) are at offsets from
    /// the object's start, and skips a field whose type the runtime cannot resolve rather than
    /// giving up.
    private static let options = _EachFieldOptions(rawValue: 1 << 0 | 1 << 1)

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
        var offsets: [Int] = []
        _forEachField(of: type, options: options) { _, offset, fieldType, _ in
            if fieldType is any ObservableObjectPublishedField.Type {
                offsets.append(offset)
            }
            return true
        }
        offsetsByClass.withLock { $0[key] = offsets }
        return offsets
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
