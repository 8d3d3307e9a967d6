/// How the package's internal subscriptions and subscribers show up in debugging output, the way
/// Apple's do: `description` (which each type supplies, usually the operator's name, such as
/// `"Filter"`) doubles as the playground description, and the mirror lists `mirrorChildren`,
/// which is empty unless the type names what to show (for example `["downstream": downstream]`).
@usableFromInline
protocol ReflectsAsOperator: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The labelled children of the mirror.
    var mirrorChildren: KeyValuePairs<String, Any> { get }
}

extension ReflectsAsOperator {
    @usableFromInline
    var mirrorChildren: KeyValuePairs<String, Any> { [:] }

    /// The children alone: a superclass the type happens to have (`Future`'s subscription is a
    /// subclass of its type-erased part) is an implementation detail that `dump` would otherwise
    /// list as `super:` with its stored properties.
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: mirrorChildren, ancestorRepresentation: .suppressed) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
