@_spi(Reflection) import Swift

/// The stored properties of a type as the runtime's field metadata lists them: name, byte offset
/// and type, through the standard library's `_forEachField` (the walk `Mirror` is built on;
/// standard-library SPI, present since Swift 5.2). Two places read an object's memory at offsets
/// instead of through Swift: `Subscribers.Sink` releases its closures' contexts in place
/// (`SinkHandlers`), and the default `objectWillChange` reads `@Published` storage straight out of
/// the object (`PublishedFieldLayout`). The first checks in debug builds, and the second finds,
/// what this lists.
enum StoredFields {
    /// One stored property.
    struct Field {
        var name: String
        /// From the start of the value, or for a class from the start of the object (its header
        /// included).
        var offset: Int
        var type: Any.Type
    }

    /// The stored properties of `type`, in declaration order (for a class, its superclasses' first,
    /// from the root class down). `asClass` walks `type` as a class, whose offsets are from the
    /// object's start. A field whose type the runtime cannot resolve is skipped; a type whose
    /// reflection metadata was stripped has none.
    static func of(_ type: Any.Type, asClass: Bool) -> [Field] {
        // `_EachFieldOptions.classType` and `.ignoreUnknown`, spelled by their values: the static
        // properties are `var`s, which Swift 6 does not let code read without isolation.
        let options = _EachFieldOptions(rawValue: (asClass ? 1 << 0 : 0) | 1 << 1)
        var fields: [Field] = []
        _forEachField(of: type, options: options) { name, offset, fieldType, _ in
            fields.append(Field(name: String(cString: name), offset: offset, type: fieldType))
            return true
        }
        return fields
    }
}
