/// Traps for misuse of the API that Apple's Combine also traps on.
///
/// These use `fatalError`, not `precondition`, so the message survives `-O` builds: the person
/// debugging a crash in production learns which rule was broken.
@usableFromInline
enum APIViolation {
    /// The one trap every misuse message goes through: `Combine API misuse: ` and the rule.
    @usableFromInline
    @inline(never)
    static func misuse(_ message: String, file: StaticString, line: UInt) -> Never {
        fatalError("Combine API misuse: \(message)", file: file, line: line)
    }

    @usableFromInline
    @inline(never)
    static func negativeDemand(_ value: Int, file: StaticString = #fileID, line: UInt = #line) -> Never {
        misuse("Subscribers.Demand.max(\(value)): a demand cannot be negative.", file: file, line: line)
    }

    @usableFromInline
    @inline(never)
    static func zeroDemand(_ api: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        misuse(
            "\(api) was called with a demand of .none (max(0)); a subscriber must request at least one value.",
            file: file, line: line)
    }

    @usableFromInline
    @inline(never)
    static func unexpected(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Combine internal inconsistency: \(message)", file: file, line: line)
    }
}

extension Subscribers.Demand {
    /// Traps when a subscriber requests `.none`, which Apple's Combine forbids in `request(_:)`.
    @inlinable
    @inline(__always)
    internal func assertNonZero(_ api: @autoclosure () -> String) {
        if rawValue == 0 { APIViolation.zeroDemand(api()) }
    }
}
