// Publishers.CombineLatest, CombineLatest3, CombineLatest4, their storage, and the `combineLatest` methods.

extension Publishers {
    /// Combines the latest values of two publishers: once every one has sent a value, each new
    /// value from any of them produces a tuple with the latest value of every input.
    ///
    /// Every request of the subscriber is passed on to each upstream. Only the latest value of each
    /// input is kept, so a value that arrives while the subscriber has no demand replaces the
    /// previous one rather than waiting. The publisher finishes when every upstream has finished
    /// and fails on the first failure, cancelling the others.
    public struct CombineLatest<A, B>: Publisher
    where A: Publisher, B: Publisher, A.Failure == B.Failure
    {
        /// A tuple with one value of each upstream, in declaration order.
        public typealias Output = (A.Output, B.Output)

        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// The first upstream.
        public let a: A

        /// The second upstream.
        public let b: B

        /// Combines a and b, subscribed in that order.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FanInCombineSubscription<CombineLatestStorage2<A.Output, B.Output>, S>(downstream: subscriber, arity: 2)
            subscriber.receive(subscription: subscription)
            a.receive(subscriber: subscription.side(0) { $0.a = $1 })
            b.receive(subscriber: subscription.side(1) { $0.b = $1 })
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {
    /// Equal when the upstreams are equal, pairwise and in order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b
    }
}

/// What a combineLatest of two inputs holds: the latest value of each input.
@usableFromInline
struct CombineLatestStorage2<A, B>: FanInCombineStorage {
    @usableFromInline
    var a: A?

    @usableFromInline
    var b: B?

    @inlinable
    init() {}

    @inlinable
    static var pairsStrictly: Bool { false }

    @inlinable
    static var subscriptionDescription: String { "CombineLatest" }

    @inlinable
    mutating func takeOutput() -> (A, B)? {
        guard let a, let b else { return nil }
        return (a, b)
    }

    @inlinable
    func isEmpty(at index: Int) -> Bool {
        false
    }

    @inlinable
    mutating func removeAll() {
        a = nil
        b = nil
    }
}

extension Publishers {
    /// Combines the latest values of three publishers: once every one has sent a value, each new
    /// value from any of them produces a tuple with the latest value of every input.
    ///
    /// Every request of the subscriber is passed on to each upstream. Only the latest value of each
    /// input is kept, so a value that arrives while the subscriber has no demand replaces the
    /// previous one rather than waiting. The publisher finishes when every upstream has finished
    /// and fails on the first failure, cancelling the others.
    public struct CombineLatest3<A, B, C>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, A.Failure == B.Failure, B.Failure == C.Failure
    {
        /// A tuple with one value of each upstream, in declaration order.
        public typealias Output = (A.Output, B.Output, C.Output)

        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// The first upstream.
        public let a: A

        /// The second upstream.
        public let b: B

        /// The third upstream.
        public let c: C

        /// Combines a, b and c, subscribed in that order.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FanInCombineSubscription<CombineLatestStorage3<A.Output, B.Output, C.Output>, S>(downstream: subscriber, arity: 3)
            subscriber.receive(subscription: subscription)
            a.receive(subscriber: subscription.side(0) { $0.a = $1 })
            b.receive(subscriber: subscription.side(1) { $0.b = $1 })
            c.receive(subscriber: subscription.side(2) { $0.c = $1 })
        }
    }
}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {
    /// Equal when the upstreams are equal, pairwise and in order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c
    }
}

/// What a combineLatest of three inputs holds: the latest value of each input.
@usableFromInline
struct CombineLatestStorage3<A, B, C>: FanInCombineStorage {
    @usableFromInline
    var a: A?

    @usableFromInline
    var b: B?

    @usableFromInline
    var c: C?

    @inlinable
    init() {}

    @inlinable
    static var pairsStrictly: Bool { false }

    @inlinable
    static var subscriptionDescription: String { "CombineLatest" }

    @inlinable
    mutating func takeOutput() -> (A, B, C)? {
        guard let a, let b, let c else { return nil }
        return (a, b, c)
    }

    @inlinable
    func isEmpty(at index: Int) -> Bool {
        false
    }

    @inlinable
    mutating func removeAll() {
        a = nil
        b = nil
        c = nil
    }
}

extension Publishers {
    /// Combines the latest values of four publishers: once every one has sent a value, each new
    /// value from any of them produces a tuple with the latest value of every input.
    ///
    /// Every request of the subscriber is passed on to each upstream. Only the latest value of each
    /// input is kept, so a value that arrives while the subscriber has no demand replaces the
    /// previous one rather than waiting. The publisher finishes when every upstream has finished
    /// and fails on the first failure, cancelling the others.
    public struct CombineLatest4<A, B, C, D>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher, A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure
    {
        /// A tuple with one value of each upstream, in declaration order.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)

        /// The upstreams' shared failure.
        public typealias Failure = A.Failure

        /// The first upstream.
        public let a: A

        /// The second upstream.
        public let b: B

        /// The third upstream.
        public let c: C

        /// The fourth upstream.
        public let d: D

        /// Combines a, b, c and d, subscribed in that order.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FanInCombineSubscription<CombineLatestStorage4<A.Output, B.Output, C.Output, D.Output>, S>(downstream: subscriber, arity: 4)
            subscriber.receive(subscription: subscription)
            a.receive(subscriber: subscription.side(0) { $0.a = $1 })
            b.receive(subscriber: subscription.side(1) { $0.b = $1 })
            c.receive(subscriber: subscription.side(2) { $0.c = $1 })
            d.receive(subscriber: subscription.side(3) { $0.d = $1 })
        }
    }
}

extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {
    /// Equal when the upstreams are equal, pairwise and in order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d
    }
}

/// What a combineLatest of four inputs holds: the latest value of each input.
@usableFromInline
struct CombineLatestStorage4<A, B, C, D>: FanInCombineStorage {
    @usableFromInline
    var a: A?

    @usableFromInline
    var b: B?

    @usableFromInline
    var c: C?

    @usableFromInline
    var d: D?

    @inlinable
    init() {}

    @inlinable
    static var pairsStrictly: Bool { false }

    @inlinable
    static var subscriptionDescription: String { "CombineLatest" }

    @inlinable
    mutating func takeOutput() -> (A, B, C, D)? {
        guard let a, let b, let c, let d else { return nil }
        return (a, b, c, d)
    }

    @inlinable
    func isEmpty(at index: Int) -> Bool {
        false
    }

    @inlinable
    mutating func removeAll() {
        a = nil
        b = nil
        c = nil
        d = nil
    }
}

extension Publisher {
    /// Combines this publisher with another: after each has sent a value, every new value
    /// from any of them produces a tuple of the latest values.
    ///
    ///     let letters = PassthroughSubject<String, Never>()
    ///     let numbers = PassthroughSubject<Int, Never>()
    ///     letters.combineLatest(numbers)   // a, 1, 2, b → (a,1) (a,2) (b,2)
    public func combineLatest<P>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where P: Publisher, Self.Failure == P.Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Combines this publisher with the latest values of 2 other publishers, as tuples of
    /// 3; see the two-publisher form.
    public func combineLatest<P, Q>(_ publisher1: P, _ publisher2: Q) -> Publishers.CombineLatest3<Self, P, Q>
    where P: Publisher, Q: Publisher, Self.Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Combines this publisher with the latest values of 3 other publishers, as tuples of
    /// 4; see the two-publisher form.
    public func combineLatest<P, Q, R>(_ publisher1: P, _ publisher2: Q, _ publisher3: R) -> Publishers.CombineLatest4<Self, P, Q, R>
    where P: Publisher, Q: Publisher, R: Publisher, Self.Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

}

extension Publisher {
    /// Combines this publisher with another and turns each tuple into a value with
    /// `transform`; the same as `combineLatest` followed by `map`, and typed as such.
    public func combineLatest<P, T>(_ other: P, _ transform: @escaping (Self.Output, P.Output) -> T)
        -> Publishers.Map<Publishers.CombineLatest<Self, P>, T>
    where P: Publisher, Self.Failure == P.Failure {
        Publishers.CombineLatest(self, other).map(transform)
    }

    /// Combines this publisher with 2 others and turns each tuple into a value with
    /// `transform`; the same as `combineLatest` followed by `map`, and typed as such.
    public func combineLatest<P, Q, T>(_ publisher1: P, _ publisher2: Q, _ transform: @escaping (Self.Output, P.Output, Q.Output) -> T)
        -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
    where P: Publisher, Q: Publisher, Self.Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2).map(transform)
    }

    /// Combines this publisher with 3 others and turns each tuple into a value with
    /// `transform`; the same as `combineLatest` followed by `map`, and typed as such.
    public func combineLatest<P, Q, R, T>(_ publisher1: P, _ publisher2: Q, _ publisher3: R, _ transform: @escaping (Self.Output, P.Output, Q.Output, R.Output) -> T)
        -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where P: Publisher, Q: Publisher, R: Publisher, Self.Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3).map(transform)
    }

}

// Sendable when everything it stores is.
extension Publishers.CombineLatest: Sendable where A: Sendable, B: Sendable {}
extension Publishers.CombineLatest3: Sendable where A: Sendable, B: Sendable, C: Sendable {}
extension Publishers.CombineLatest4: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable {}
