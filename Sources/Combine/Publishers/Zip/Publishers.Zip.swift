// Publishers.Zip, Zip3, Zip4, their storage, and the `zip` methods.

extension Publishers {
    /// Pairs the values of two publishers one to one: the first value of each, then the second of
    /// each, and so on, as a tuple.
    ///
    /// Values wait, per input, until every input has one to contribute. Every request of the
    /// subscriber is passed on to each upstream, so no input is asked for more than the subscriber
    /// wants. The zip finishes as soon as an upstream has finished and none of its values is left
    /// to pair (no further tuple is possible), and fails on the first failure; in both cases the
    /// other upstreams are cancelled.
    public struct Zip<A, B>: Publisher
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

        /// Zips a and b, subscribed in that order.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FanInCombineSubscription<ZipStorage2<A.Output, B.Output>, S>(downstream: subscriber, arity: 2)
            subscriber.receive(subscription: subscription)
            a.receive(subscriber: subscription.side(0) { $0.a.append($1) })
            b.receive(subscriber: subscription.side(1) { $0.b.append($1) })
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {
    /// Equal when the upstreams are equal, pairwise and in order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b
    }
}

/// What a zip of two inputs holds: the values of each input not yet paired, oldest first.
@usableFromInline
struct ZipStorage2<A, B>: FanInCombineStorage {
    @usableFromInline
    var a = FanInQueue<A>()

    @usableFromInline
    var b = FanInQueue<B>()

    @inlinable
    init() {}

    @inlinable
    static var pairsStrictly: Bool { true }

    @inlinable
    static var subscriptionDescription: String { "Zip" }

    @inlinable
    mutating func takeOutput() -> (A, B)? {
        guard !a.isEmpty, !b.isEmpty else { return nil }
        return (a.popFirst()!, b.popFirst()!)
    }

    @inlinable
    func isEmpty(at index: Int) -> Bool {
        switch index {
        case 0: return a.isEmpty
        default: return b.isEmpty
        }
    }

    @inlinable
    mutating func removeAll() {
        a.removeAll()
        b.removeAll()
    }
}

extension Publishers {
    /// Pairs the values of three publishers one to one: the first value of each, then the second of
    /// each, and so on, as a tuple.
    ///
    /// Values wait, per input, until every input has one to contribute. Every request of the
    /// subscriber is passed on to each upstream, so no input is asked for more than the subscriber
    /// wants. The zip finishes as soon as an upstream has finished and none of its values is left
    /// to pair (no further tuple is possible), and fails on the first failure; in both cases the
    /// other upstreams are cancelled.
    public struct Zip3<A, B, C>: Publisher
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

        /// Zips a, b and c, subscribed in that order.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FanInCombineSubscription<ZipStorage3<A.Output, B.Output, C.Output>, S>(downstream: subscriber, arity: 3)
            subscriber.receive(subscription: subscription)
            a.receive(subscriber: subscription.side(0) { $0.a.append($1) })
            b.receive(subscriber: subscription.side(1) { $0.b.append($1) })
            c.receive(subscriber: subscription.side(2) { $0.c.append($1) })
        }
    }
}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {
    /// Equal when the upstreams are equal, pairwise and in order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c
    }
}

/// What a zip of three inputs holds: the values of each input not yet paired, oldest first.
@usableFromInline
struct ZipStorage3<A, B, C>: FanInCombineStorage {
    @usableFromInline
    var a = FanInQueue<A>()

    @usableFromInline
    var b = FanInQueue<B>()

    @usableFromInline
    var c = FanInQueue<C>()

    @inlinable
    init() {}

    @inlinable
    static var pairsStrictly: Bool { true }

    @inlinable
    static var subscriptionDescription: String { "Zip" }

    @inlinable
    mutating func takeOutput() -> (A, B, C)? {
        guard !a.isEmpty, !b.isEmpty, !c.isEmpty else { return nil }
        return (a.popFirst()!, b.popFirst()!, c.popFirst()!)
    }

    @inlinable
    func isEmpty(at index: Int) -> Bool {
        switch index {
        case 0: return a.isEmpty
        case 1: return b.isEmpty
        default: return c.isEmpty
        }
    }

    @inlinable
    mutating func removeAll() {
        a.removeAll()
        b.removeAll()
        c.removeAll()
    }
}

extension Publishers {
    /// Pairs the values of four publishers one to one: the first value of each, then the second of
    /// each, and so on, as a tuple.
    ///
    /// Values wait, per input, until every input has one to contribute. Every request of the
    /// subscriber is passed on to each upstream, so no input is asked for more than the subscriber
    /// wants. The zip finishes as soon as an upstream has finished and none of its values is left
    /// to pair (no further tuple is possible), and fails on the first failure; in both cases the
    /// other upstreams are cancelled.
    public struct Zip4<A, B, C, D>: Publisher
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

        /// Zips a, b, c and d, subscribed in that order.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FanInCombineSubscription<ZipStorage4<A.Output, B.Output, C.Output, D.Output>, S>(downstream: subscriber, arity: 4)
            subscriber.receive(subscription: subscription)
            a.receive(subscriber: subscription.side(0) { $0.a.append($1) })
            b.receive(subscriber: subscription.side(1) { $0.b.append($1) })
            c.receive(subscriber: subscription.side(2) { $0.c.append($1) })
            d.receive(subscriber: subscription.side(3) { $0.d.append($1) })
        }
    }
}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {
    /// Equal when the upstreams are equal, pairwise and in order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d
    }
}

/// What a zip of four inputs holds: the values of each input not yet paired, oldest first.
@usableFromInline
struct ZipStorage4<A, B, C, D>: FanInCombineStorage {
    @usableFromInline
    var a = FanInQueue<A>()

    @usableFromInline
    var b = FanInQueue<B>()

    @usableFromInline
    var c = FanInQueue<C>()

    @usableFromInline
    var d = FanInQueue<D>()

    @inlinable
    init() {}

    @inlinable
    static var pairsStrictly: Bool { true }

    @inlinable
    static var subscriptionDescription: String { "Zip" }

    @inlinable
    mutating func takeOutput() -> (A, B, C, D)? {
        guard !a.isEmpty, !b.isEmpty, !c.isEmpty, !d.isEmpty else { return nil }
        return (a.popFirst()!, b.popFirst()!, c.popFirst()!, d.popFirst()!)
    }

    @inlinable
    func isEmpty(at index: Int) -> Bool {
        switch index {
        case 0: return a.isEmpty
        case 1: return b.isEmpty
        case 2: return c.isEmpty
        default: return d.isEmpty
        }
    }

    @inlinable
    mutating func removeAll() {
        a.removeAll()
        b.removeAll()
        c.removeAll()
        d.removeAll()
    }
}

extension Publisher {
    /// Pairs this publisher's values one to one with those of another publisher, as tuples.
    ///
    ///     let letters = PassthroughSubject<String, Never>()
    ///     let numbers = PassthroughSubject<Int, Never>()
    ///     letters.zip(numbers)   // a, 1, 2, b, c, d, 3, 10 → (a,1) (b,2) (c,3) (d,10)
    public func zip<P>(_ other: P) -> Publishers.Zip<Self, P>
    where P: Publisher, Self.Failure == P.Failure {
        Publishers.Zip(self, other)
    }

    /// Pairs this publisher's values one to one with those of 2 other publishers, as tuples of
    /// 3; see the two-publisher form.
    public func zip<P, Q>(_ publisher1: P, _ publisher2: Q) -> Publishers.Zip3<Self, P, Q>
    where P: Publisher, Q: Publisher, Self.Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Pairs this publisher's values one to one with those of 3 other publishers, as tuples of
    /// 4; see the two-publisher form.
    public func zip<P, Q, R>(_ publisher1: P, _ publisher2: Q, _ publisher3: R) -> Publishers.Zip4<Self, P, Q, R>
    where P: Publisher, Q: Publisher, R: Publisher, Self.Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }

}

extension Publisher {
    /// Zips this publisher with another and turns each tuple into a value with
    /// `transform`; the same as `zip` followed by `map`, and typed as such.
    public func zip<P, T>(_ other: P, _ transform: @escaping (Self.Output, P.Output) -> T)
        -> Publishers.Map<Publishers.Zip<Self, P>, T>
    where P: Publisher, Self.Failure == P.Failure {
        Publishers.Zip(self, other).map(transform)
    }

    /// Zips this publisher with 2 others and turns each tuple into a value with
    /// `transform`; the same as `zip` followed by `map`, and typed as such.
    public func zip<P, Q, T>(_ publisher1: P, _ publisher2: Q, _ transform: @escaping (Self.Output, P.Output, Q.Output) -> T)
        -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
    where P: Publisher, Q: Publisher, Self.Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2).map(transform)
    }

    /// Zips this publisher with 3 others and turns each tuple into a value with
    /// `transform`; the same as `zip` followed by `map`, and typed as such.
    public func zip<P, Q, R, T>(_ publisher1: P, _ publisher2: Q, _ publisher3: R, _ transform: @escaping (Self.Output, P.Output, Q.Output, R.Output) -> T)
        -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where P: Publisher, Q: Publisher, R: Publisher, Self.Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3).map(transform)
    }

}

// Sendable when everything it stores is.
extension Publishers.Zip: Sendable where A: Sendable, B: Sendable {}
extension Publishers.Zip3: Sendable where A: Sendable, B: Sendable, C: Sendable {}
extension Publishers.Zip4: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable {}
