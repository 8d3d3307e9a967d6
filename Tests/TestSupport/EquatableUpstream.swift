import Combine

/// A publisher with value equality and no behaviour, for checking the conditional `Equatable`
/// conformances of operator types: two operators are equal when their upstreams (this) and
/// parameters are.
public struct EquatableUpstream: Publisher, Equatable {
    public typealias Output = Int
    public typealias Failure = Never

    public let id: Int

    public init(id: Int) { self.id = id }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {}
}
