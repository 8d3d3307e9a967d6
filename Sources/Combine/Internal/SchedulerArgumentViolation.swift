extension APIViolation {
    /// Traps when a scheduler is handed an argument it cannot honour (a dispatch timer cannot
    /// repeat backwards), naming the scheduler's method and the rule. `fatalError`, so the message
    /// survives optimised builds, where Dispatch itself would stop the process without one.
    @usableFromInline
    @inline(never)
    static func invalidSchedulerArgument(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        misuse(message, file: file, line: line)
    }

    /// Traps when arithmetic on a scheduler's `Stride` overflows its integer count, naming the
    /// type and the operation instead of the bare overflow an optimised build reports.
    @usableFromInline
    @inline(never)
    static func strideOverflow(_ type: String, _ operation: String, _ lhs: Int, _ rhs: Int,
                               file: StaticString = #fileID, line: UInt = #line) -> Never {
        misuse("\(type) \(operation): \(lhs) \(operation) \(rhs) overflows the stride's Int count.", file: file, line: line)
    }
}
