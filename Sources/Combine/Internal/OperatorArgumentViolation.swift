extension APIViolation {
    /// Traps when an operator is given an argument Apple's Combine rejects (a negative count, an
    /// empty batch size), naming the operator and the rule. Like the other violations it uses
    /// `fatalError`, so the message survives optimised builds.
    @usableFromInline
    @inline(never)
    static func invalidOperatorArgument(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        misuse(message, file: file, line: line)
    }
}
