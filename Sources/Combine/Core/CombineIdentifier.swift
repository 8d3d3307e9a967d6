import Synchronization

/// A unique identifier for a publisher, subscriber or subscription stage.
///
/// Identifiers made with ``init()`` come from a process-wide counter; identifiers made from an
/// object are derived from its address, so the same live object always has the same identifier.
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
    @usableFromInline
    let rawValue: UInt64

    /// A new identifier, different from every other one made with this initializer.
    public init() {
        rawValue = nextCombineIdentifier.add(1, ordering: .relaxed).newValue
    }

    /// The identifier of `obj`, stable for as long as the object lives.
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
    }

    /// The identifier in hexadecimal, as `0x1f`.
    public var description: String {
        "0x" + String(rawValue, radix: 16)
    }
}

private let nextCombineIdentifier = Atomic<UInt64>(0)

/// A type that can tell which stage of a pipeline it is, for debugging and for
/// ``Subscribers`` that need stable identities.
public protocol CustomCombineIdentifierConvertible {
    /// The identifier of this stage.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// For classes, the identifier is derived from the instance's identity.
    public var combineIdentifier: CombineIdentifier {
        CombineIdentifier(self)
    }
}
