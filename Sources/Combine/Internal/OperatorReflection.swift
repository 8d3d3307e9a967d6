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

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: mirrorChildren) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
