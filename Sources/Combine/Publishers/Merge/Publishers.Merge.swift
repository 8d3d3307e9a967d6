// Publishers.Merge … Publishers.Merge8: Apple's fixed-arity merges, and the `merge(with:)`
// methods that build them. All share one subscription type, `MergeSubscription`.

extension Publishers {
    /// Interleaves the values of two publishers with the same `Output` and `Failure`, in the
    /// order they arrive.
    ///
    /// Each upstream is asked for no more than the subscriber's outstanding demand; values that
    /// arrive while the subscriber has no demand wait, in arrival order, and concurrent upstreams
    /// are delivered one at a time. The merge finishes after every upstream has finished and fails
    /// as soon as one fails, cancelling the others.
    public struct Merge<A, B>: Publisher
    where A: Publisher, B: Publisher,
        A.Failure == B.Failure, A.Output == B.Output
    {
        /// The values are those of the upstreams.
        public typealias Output = A.Output

        /// The failure is the upstreams' shared failure.
        public typealias Failure = A.Failure

        /// The first publisher merged.
        public let a: A

        /// The second publisher merged.
        public let b: B

        /// Merges a and b; they are subscribed in that order.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = MergeSubscription(downstream: subscriber, upstreamCount: 2)
            subscription.start(subscriber)
            a.receive(subscriber: subscription.side(0))
            b.receive(subscriber: subscription.side(1))
            subscription.didSubscribeAll()
        }

        /// Adds one more publisher to this merge, giving one flat `Merge3` rather than a nested merge.
        public func merge<P>(with other: P) -> Publishers.Merge3<A, B, P>
        where P: Publisher, B.Failure == P.Failure, B.Output == P.Output {
            Publishers.Merge3(a, b, other)
        }

        /// Adds 2 more publishers to this merge, giving one flat `Merge4` rather than a nested merge.
        public func merge<Z, Y>(with z: Z, _ y: Y) -> Publishers.Merge4<A, B, Z, Y>
        where Z: Publisher, Y: Publisher, B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
            Publishers.Merge4(a, b, z, y)
        }

        /// Adds 3 more publishers to this merge, giving one flat `Merge5` rather than a nested merge.
        public func merge<Z, Y, X>(with z: Z, _ y: Y, _ x: X) -> Publishers.Merge5<A, B, Z, Y, X>
        where Z: Publisher, Y: Publisher, X: Publisher, B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output {
            Publishers.Merge5(a, b, z, y, x)
        }

        /// Adds 4 more publishers to this merge, giving one flat `Merge6` rather than a nested merge.
        public func merge<Z, Y, X, W>(with z: Z, _ y: Y, _ x: X, _ w: W) -> Publishers.Merge6<A, B, Z, Y, X, W>
        where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output {
            Publishers.Merge6(a, b, z, y, x, w)
        }

        /// Adds 5 more publishers to this merge, giving one flat `Merge7` rather than a nested merge.
        public func merge<Z, Y, X, W, V>(with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
        where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output, W.Failure == V.Failure, W.Output == V.Output {
            Publishers.Merge7(a, b, z, y, x, w, v)
        }

        /// Adds 6 more publishers to this merge, giving one flat `Merge8` rather than a nested merge.
        public func merge<Z, Y, X, W, V, U>(with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
        where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher, B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output, W.Failure == V.Failure, W.Output == V.Output, V.Failure == U.Failure, V.Output == U.Output {
            Publishers.Merge8(a, b, z, y, x, w, v, u)
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {
    /// Two merges are equal when they merge equal publishers in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b
    }
}

extension Publishers {
    /// Interleaves the values of three publishers with the same `Output` and `Failure`, in the
    /// order they arrive.
    ///
    /// Each upstream is asked for no more than the subscriber's outstanding demand; values that
    /// arrive while the subscriber has no demand wait, in arrival order, and concurrent upstreams
    /// are delivered one at a time. The merge finishes after every upstream has finished and fails
    /// as soon as one fails, cancelling the others.
    public struct Merge3<A, B, C>: Publisher
    where A: Publisher, B: Publisher, C: Publisher,
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output
    {
        /// The values are those of the upstreams.
        public typealias Output = A.Output

        /// The failure is the upstreams' shared failure.
        public typealias Failure = A.Failure

        /// The first publisher merged.
        public let a: A

        /// The second publisher merged.
        public let b: B

        /// The third publisher merged.
        public let c: C

        /// Merges a, b and c; they are subscribed in that order.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = MergeSubscription(downstream: subscriber, upstreamCount: 3)
            subscription.start(subscriber)
            a.receive(subscriber: subscription.side(0))
            b.receive(subscriber: subscription.side(1))
            c.receive(subscriber: subscription.side(2))
            subscription.didSubscribeAll()
        }

        /// Adds one more publisher to this merge, giving one flat `Merge4` rather than a nested merge.
        public func merge<P>(with other: P) -> Publishers.Merge4<A, B, C, P>
        where P: Publisher, C.Failure == P.Failure, C.Output == P.Output {
            Publishers.Merge4(a, b, c, other)
        }

        /// Adds 2 more publishers to this merge, giving one flat `Merge5` rather than a nested merge.
        public func merge<Z, Y>(with z: Z, _ y: Y) -> Publishers.Merge5<A, B, C, Z, Y>
        where Z: Publisher, Y: Publisher, C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
            Publishers.Merge5(a, b, c, z, y)
        }

        /// Adds 3 more publishers to this merge, giving one flat `Merge6` rather than a nested merge.
        public func merge<Z, Y, X>(with z: Z, _ y: Y, _ x: X) -> Publishers.Merge6<A, B, C, Z, Y, X>
        where Z: Publisher, Y: Publisher, X: Publisher, C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output {
            Publishers.Merge6(a, b, c, z, y, x)
        }

        /// Adds 4 more publishers to this merge, giving one flat `Merge7` rather than a nested merge.
        public func merge<Z, Y, X, W>(with z: Z, _ y: Y, _ x: X, _ w: W) -> Publishers.Merge7<A, B, C, Z, Y, X, W>
        where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output {
            Publishers.Merge7(a, b, c, z, y, x, w)
        }

        /// Adds 5 more publishers to this merge, giving one flat `Merge8` rather than a nested merge.
        public func merge<Z, Y, X, W, V>(with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V) -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
        where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output, W.Failure == V.Failure, W.Output == V.Output {
            Publishers.Merge8(a, b, c, z, y, x, w, v)
        }
    }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {
    /// Two merges are equal when they merge equal publishers in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c
    }
}

extension Publishers {
    /// Interleaves the values of four publishers with the same `Output` and `Failure`, in the
    /// order they arrive.
    ///
    /// Each upstream is asked for no more than the subscriber's outstanding demand; values that
    /// arrive while the subscriber has no demand wait, in arrival order, and concurrent upstreams
    /// are delivered one at a time. The merge finishes after every upstream has finished and fails
    /// as soon as one fails, cancelling the others.
    public struct Merge4<A, B, C, D>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher,
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output
    {
        /// The values are those of the upstreams.
        public typealias Output = A.Output

        /// The failure is the upstreams' shared failure.
        public typealias Failure = A.Failure

        /// The first publisher merged.
        public let a: A

        /// The second publisher merged.
        public let b: B

        /// The third publisher merged.
        public let c: C

        /// The fourth publisher merged.
        public let d: D

        /// Merges a, b, c and d; they are subscribed in that order.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = MergeSubscription(downstream: subscriber, upstreamCount: 4)
            subscription.start(subscriber)
            a.receive(subscriber: subscription.side(0))
            b.receive(subscriber: subscription.side(1))
            c.receive(subscriber: subscription.side(2))
            d.receive(subscriber: subscription.side(3))
            subscription.didSubscribeAll()
        }

        /// Adds one more publisher to this merge, giving one flat `Merge5` rather than a nested merge.
        public func merge<P>(with other: P) -> Publishers.Merge5<A, B, C, D, P>
        where P: Publisher, D.Failure == P.Failure, D.Output == P.Output {
            Publishers.Merge5(a, b, c, d, other)
        }

        /// Adds 2 more publishers to this merge, giving one flat `Merge6` rather than a nested merge.
        public func merge<Z, Y>(with z: Z, _ y: Y) -> Publishers.Merge6<A, B, C, D, Z, Y>
        where Z: Publisher, Y: Publisher, D.Failure == Z.Failure, D.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
            Publishers.Merge6(a, b, c, d, z, y)
        }

        /// Adds 3 more publishers to this merge, giving one flat `Merge7` rather than a nested merge.
        public func merge<Z, Y, X>(with z: Z, _ y: Y, _ x: X) -> Publishers.Merge7<A, B, C, D, Z, Y, X>
        where Z: Publisher, Y: Publisher, X: Publisher, D.Failure == Z.Failure, D.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output {
            Publishers.Merge7(a, b, c, d, z, y, x)
        }

        /// Adds 4 more publishers to this merge, giving one flat `Merge8` rather than a nested merge.
        public func merge<Z, Y, X, W>(with z: Z, _ y: Y, _ x: X, _ w: W) -> Publishers.Merge8<A, B, C, D, Z, Y, X, W>
        where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, D.Failure == Z.Failure, D.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output {
            Publishers.Merge8(a, b, c, d, z, y, x, w)
        }
    }
}

extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {
    /// Two merges are equal when they merge equal publishers in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d
    }
}

extension Publishers {
    /// Interleaves the values of five publishers with the same `Output` and `Failure`, in the
    /// order they arrive.
    ///
    /// Each upstream is asked for no more than the subscriber's outstanding demand; values that
    /// arrive while the subscriber has no demand wait, in arrival order, and concurrent upstreams
    /// are delivered one at a time. The merge finishes after every upstream has finished and fails
    /// as soon as one fails, cancelling the others.
    public struct Merge5<A, B, C, D, E>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher,
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output
    {
        /// The values are those of the upstreams.
        public typealias Output = A.Output

        /// The failure is the upstreams' shared failure.
        public typealias Failure = A.Failure

        /// The first publisher merged.
        public let a: A

        /// The second publisher merged.
        public let b: B

        /// The third publisher merged.
        public let c: C

        /// The fourth publisher merged.
        public let d: D

        /// The fifth publisher merged.
        public let e: E

        /// Merges a, b, c, d and e; they are subscribed in that order.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = MergeSubscription(downstream: subscriber, upstreamCount: 5)
            subscription.start(subscriber)
            a.receive(subscriber: subscription.side(0))
            b.receive(subscriber: subscription.side(1))
            c.receive(subscriber: subscription.side(2))
            d.receive(subscriber: subscription.side(3))
            e.receive(subscriber: subscription.side(4))
            subscription.didSubscribeAll()
        }

        /// Adds one more publisher to this merge, giving one flat `Merge6` rather than a nested merge.
        public func merge<P>(with other: P) -> Publishers.Merge6<A, B, C, D, E, P>
        where P: Publisher, E.Failure == P.Failure, E.Output == P.Output {
            Publishers.Merge6(a, b, c, d, e, other)
        }

        /// Adds 2 more publishers to this merge, giving one flat `Merge7` rather than a nested merge.
        public func merge<Z, Y>(with z: Z, _ y: Y) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
        where Z: Publisher, Y: Publisher, E.Failure == Z.Failure, E.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
            Publishers.Merge7(a, b, c, d, e, z, y)
        }

        /// Adds 3 more publishers to this merge, giving one flat `Merge8` rather than a nested merge.
        public func merge<Z, Y, X>(with z: Z, _ y: Y, _ x: X) -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
        where Z: Publisher, Y: Publisher, X: Publisher, E.Failure == Z.Failure, E.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output {
            Publishers.Merge8(a, b, c, d, e, z, y, x)
        }
    }
}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {
    /// Two merges are equal when they merge equal publishers in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e
    }
}

extension Publishers {
    /// Interleaves the values of six publishers with the same `Output` and `Failure`, in the
    /// order they arrive.
    ///
    /// Each upstream is asked for no more than the subscriber's outstanding demand; values that
    /// arrive while the subscriber has no demand wait, in arrival order, and concurrent upstreams
    /// are delivered one at a time. The merge finishes after every upstream has finished and fails
    /// as soon as one fails, cancelling the others.
    public struct Merge6<A, B, C, D, E, F>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output
    {
        /// The values are those of the upstreams.
        public typealias Output = A.Output

        /// The failure is the upstreams' shared failure.
        public typealias Failure = A.Failure

        /// The first publisher merged.
        public let a: A

        /// The second publisher merged.
        public let b: B

        /// The third publisher merged.
        public let c: C

        /// The fourth publisher merged.
        public let d: D

        /// The fifth publisher merged.
        public let e: E

        /// The sixth publisher merged.
        public let f: F

        /// Merges a, b, c, d, e and f; they are subscribed in that order.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = MergeSubscription(downstream: subscriber, upstreamCount: 6)
            subscription.start(subscriber)
            a.receive(subscriber: subscription.side(0))
            b.receive(subscriber: subscription.side(1))
            c.receive(subscriber: subscription.side(2))
            d.receive(subscriber: subscription.side(3))
            e.receive(subscriber: subscription.side(4))
            f.receive(subscriber: subscription.side(5))
            subscription.didSubscribeAll()
        }

        /// Adds one more publisher to this merge, giving one flat `Merge7` rather than a nested merge.
        public func merge<P>(with other: P) -> Publishers.Merge7<A, B, C, D, E, F, P>
        where P: Publisher, F.Failure == P.Failure, F.Output == P.Output {
            Publishers.Merge7(a, b, c, d, e, f, other)
        }

        /// Adds 2 more publishers to this merge, giving one flat `Merge8` rather than a nested merge.
        public func merge<Z, Y>(with z: Z, _ y: Y) -> Publishers.Merge8<A, B, C, D, E, F, Z, Y>
        where Z: Publisher, Y: Publisher, F.Failure == Z.Failure, F.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
            Publishers.Merge8(a, b, c, d, e, f, z, y)
        }
    }
}

extension Publishers.Merge6: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {
    /// Two merges are equal when they merge equal publishers in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e && lhs.f == rhs.f
    }
}

extension Publishers {
    /// Interleaves the values of seven publishers with the same `Output` and `Failure`, in the
    /// order they arrive.
    ///
    /// Each upstream is asked for no more than the subscriber's outstanding demand; values that
    /// arrive while the subscriber has no demand wait, in arrival order, and concurrent upstreams
    /// are delivered one at a time. The merge finishes after every upstream has finished and fails
    /// as soon as one fails, cancelling the others.
    public struct Merge7<A, B, C, D, E, F, G>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher,
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output
    {
        /// The values are those of the upstreams.
        public typealias Output = A.Output

        /// The failure is the upstreams' shared failure.
        public typealias Failure = A.Failure

        /// The first publisher merged.
        public let a: A

        /// The second publisher merged.
        public let b: B

        /// The third publisher merged.
        public let c: C

        /// The fourth publisher merged.
        public let d: D

        /// The fifth publisher merged.
        public let e: E

        /// The sixth publisher merged.
        public let f: F

        /// The seventh publisher merged.
        public let g: G

        /// Merges a, b, c, d, e, f and g; they are subscribed in that order.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = MergeSubscription(downstream: subscriber, upstreamCount: 7)
            subscription.start(subscriber)
            a.receive(subscriber: subscription.side(0))
            b.receive(subscriber: subscription.side(1))
            c.receive(subscriber: subscription.side(2))
            d.receive(subscriber: subscription.side(3))
            e.receive(subscriber: subscription.side(4))
            f.receive(subscriber: subscription.side(5))
            g.receive(subscriber: subscription.side(6))
            subscription.didSubscribeAll()
        }

        /// Adds one more publisher to this merge, giving one flat `Merge8` rather than a nested merge.
        public func merge<P>(with other: P) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
        where P: Publisher, G.Failure == P.Failure, G.Output == P.Output {
            Publishers.Merge8(a, b, c, d, e, f, g, other)
        }
    }
}

extension Publishers.Merge7: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {
    /// Two merges are equal when they merge equal publishers in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e && lhs.f == rhs.f && lhs.g == rhs.g
    }
}

extension Publishers {
    /// Interleaves the values of eight publishers with the same `Output` and `Failure`, in the
    /// order they arrive.
    ///
    /// Each upstream is asked for no more than the subscriber's outstanding demand; values that
    /// arrive while the subscriber has no demand wait, in arrival order, and concurrent upstreams
    /// are delivered one at a time. The merge finishes after every upstream has finished and fails
    /// as soon as one fails, cancelling the others.
    public struct Merge8<A, B, C, D, E, F, G, H>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher,
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output, G.Failure == H.Failure, G.Output == H.Output
    {
        /// The values are those of the upstreams.
        public typealias Output = A.Output

        /// The failure is the upstreams' shared failure.
        public typealias Failure = A.Failure

        /// The first publisher merged.
        public let a: A

        /// The second publisher merged.
        public let b: B

        /// The third publisher merged.
        public let c: C

        /// The fourth publisher merged.
        public let d: D

        /// The fifth publisher merged.
        public let e: E

        /// The sixth publisher merged.
        public let f: F

        /// The seventh publisher merged.
        public let g: G

        /// The eighth publisher merged.
        public let h: H

        /// Merges a, b, c, d, e, f, g and h; they are subscribed in that order.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        /// Subscribes to every upstream, in declaration order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = MergeSubscription(downstream: subscriber, upstreamCount: 8)
            subscription.start(subscriber)
            a.receive(subscriber: subscription.side(0))
            b.receive(subscriber: subscription.side(1))
            c.receive(subscriber: subscription.side(2))
            d.receive(subscriber: subscription.side(3))
            e.receive(subscriber: subscription.side(4))
            f.receive(subscriber: subscription.side(5))
            g.receive(subscriber: subscription.side(6))
            h.receive(subscriber: subscription.side(7))
            subscription.didSubscribeAll()
        }
    }
}

extension Publishers.Merge8: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {
    /// Two merges are equal when they merge equal publishers in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e && lhs.f == rhs.f && lhs.g == rhs.g && lhs.h == rhs.h
    }
}

extension Publisher {
    /// Interleaves this publisher's values with those of `other`, in the order they arrive.
    ///
    /// Both must have the same `Output` and `Failure`. The result finishes when both have finished
    /// and fails as soon as either fails:
    ///
    ///     let odd = PassthroughSubject<Int, Never>()
    ///     let even = PassthroughSubject<Int, Never>()
    ///     let all = odd.merge(with: even)   // 1, 2, 3 … as they are sent
    public func merge<P>(with other: P) -> Publishers.Merge<Self, P>
    where P: Publisher, Self.Failure == P.Failure, Self.Output == P.Output {
        Publishers.Merge(self, other)
    }

    /// Interleaves this publisher's values with those of 2 others, in the order they arrive; see
    /// ``merge(with:)-7qt71``.
    public func merge<B, C>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B: Publisher, C: Publisher, Self.Failure == B.Failure, Self.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output {
        Publishers.Merge3(self, b, c)
    }

    /// Interleaves this publisher's values with those of 3 others, in the order they arrive; see
    /// ``merge(with:)-7qt71``.
    public func merge<B, C, D>(with b: B, _ c: C, _ d: D) -> Publishers.Merge4<Self, B, C, D>
    where B: Publisher, C: Publisher, D: Publisher, Self.Failure == B.Failure, Self.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output {
        Publishers.Merge4(self, b, c, d)
    }

    /// Interleaves this publisher's values with those of 4 others, in the order they arrive; see
    /// ``merge(with:)-7qt71``.
    public func merge<B, C, D, E>(with b: B, _ c: C, _ d: D, _ e: E) -> Publishers.Merge5<Self, B, C, D, E>
    where B: Publisher, C: Publisher, D: Publisher, E: Publisher, Self.Failure == B.Failure, Self.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Interleaves this publisher's values with those of 5 others, in the order they arrive; see
    /// ``merge(with:)-7qt71``.
    public func merge<B, C, D, E, F>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F) -> Publishers.Merge6<Self, B, C, D, E, F>
    where B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, Self.Failure == B.Failure, Self.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Interleaves this publisher's values with those of 6 others, in the order they arrive; see
    /// ``merge(with:)-7qt71``.
    public func merge<B, C, D, E, F, G>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, Self.Failure == B.Failure, Self.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Interleaves this publisher's values with those of 7 others, in the order they arrive; see
    /// ``merge(with:)-7qt71``.
    public func merge<B, C, D, E, F, G, H>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher, Self.Failure == B.Failure, Self.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output, G.Failure == H.Failure, G.Output == H.Output {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }

    /// Interleaves this publisher's values with those of another publisher of the very same type,
    /// as a ``Publishers/MergeMany`` that further `merge(with:)` calls extend instead of nesting.
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}

// Sendable when everything it stores is.
extension Publishers.Merge: Sendable where A: Sendable, B: Sendable {}
extension Publishers.Merge3: Sendable where A: Sendable, B: Sendable, C: Sendable {}
extension Publishers.Merge4: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable {}
extension Publishers.Merge5: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable {}
extension Publishers.Merge6: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable, F: Sendable {}
extension Publishers.Merge7: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable, F: Sendable, G: Sendable {}
extension Publishers.Merge8: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable, F: Sendable, G: Sendable, H: Sendable {}
