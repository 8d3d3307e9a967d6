extension APIViolation {
    /// Traps when an upstream breaks the `Publisher` contract in a way Apple's Combine also traps
    /// on (a value before the subscription, a value beyond the demand, a second completion). The
    /// message names the operator and the rule; `fatalError` keeps it in optimised builds.
    @usableFromInline
    @inline(never)
    static func upstreamContract(
        _ operatorName: String, _ rule: String, file: StaticString = #fileID, line: UInt = #line
    ) -> Never {
        misuse("\(operatorName) \(rule)", file: file, line: line)
    }
}
