extension Publishers {
    /// The publisher `map(_:)` with one key path returns: each value is replaced by the property the
    /// key path reads.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        /// Reading a property cannot fail, so errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream

        /// The property read from every value.
        public let keyPath: KeyPath<Upstream.Output, Output>

        @inlinable
        init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        /// Connects `subscriber`; the upstream subscription is passed straight through.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
            let reader = KeyPathReader(keyPath)
            upstream.subscribe(KeyPathReadingStage(downstream: subscriber, keyPaths: [keyPath]) { reader.read($0) })
        }
    }

    /// The publisher `map(_:_:)` with two key paths returns: each value becomes a pair of its
    /// properties.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        /// The pair read from each value.
        public typealias Output = (Output0, Output1)
        /// Reading properties cannot fail, so errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// The first property read.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The second property read.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        @inlinable
        init(upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        /// Connects `subscriber`; the upstream subscription is passed straight through.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == (Output0, Output1), Upstream.Failure == S.Failure {
            let reader0 = KeyPathReader(keyPath0), reader1 = KeyPathReader(keyPath1)
            upstream.subscribe(KeyPathReadingStage(downstream: subscriber, keyPaths: [keyPath0, keyPath1]) {
                (reader0.read($0), reader1.read($0))
            })
        }
    }

    /// The publisher `map(_:_:_:)` with three key paths returns: each value becomes a triple of its
    /// properties.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        /// The triple read from each value.
        public typealias Output = (Output0, Output1, Output2)
        /// Reading properties cannot fail, so errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// The first property read.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The second property read.
        public let keyPath1: KeyPath<Upstream.Output, Output1>
        /// The third property read.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        @inlinable
        init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>, keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        /// Connects `subscriber`; the upstream subscription is passed straight through.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == (Output0, Output1, Output2), Upstream.Failure == S.Failure {
            let reader0 = KeyPathReader(keyPath0), reader1 = KeyPathReader(keyPath1), reader2 = KeyPathReader(keyPath2)
            upstream.subscribe(KeyPathReadingStage(downstream: subscriber, keyPaths: [keyPath0, keyPath1, keyPath2]) {
                (reader0.read($0), reader1.read($0), reader2.read($0))
            })
        }
    }
}

/// Reads one key path of every value. A key path to a stored property held inline in its root
/// (a struct's field, a field of a field, a tuple's element, the root itself) is read at its byte
/// offset, found once per subscription with `MemoryLayout.offset(of:)`: the standard library's
/// general key-path read looks up type metadata at run time, about 430 instructions per value
/// more (`map(\.a)` on a struct: 631 instructions per value against 205 for `map { $0.a }`).
/// Any other key path (a computed property, a class's property, an optional chain) is read as
/// usual.
@usableFromInline
struct KeyPathReader<Root, Value> {
    @usableFromInline let keyPath: KeyPath<Root, Value>
    /// The value's byte offset in its root, or `nil` when the path is not inline storage.
    @usableFromInline let offset: Int?

    @inlinable
    init(_ keyPath: KeyPath<Root, Value>) {
        self.keyPath = keyPath
        offset = MemoryLayout<Root>.offset(of: keyPath)
    }

    @inlinable @inline(__always)
    func read(_ root: Root) -> Value {
        guard let offset else { return root[keyPath: keyPath] }
        // `offset(of:)` answers only for inline storage, so a `Value` lives, initialised and
        // aligned, at that offset of the root's bytes; `load` copies it out (retaining what it
        // references).
        return withUnsafeBytes(of: root) { $0.load(fromByteOffset: offset, as: Value.self) }
    }
}

/// The stage the key-path forms of `map` attach upstream: like `map`'s, a plain value that hands
/// the upstream's subscription straight down and reads the properties of each value, but shown
/// as Apple shows it: `"ValueForKey"` with a `keyPath` child for one key path, `"ValueForKeys"`
/// with `keyPath0`, `keyPath1`… for several.
@usableFromInline
struct KeyPathReadingStage<Input, Downstream: Subscriber>: Subscriber, ReflectsAsOperator {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let downstream: Downstream
    /// The key paths, for the mirror only; `read` applies them.
    @usableFromInline let keyPaths: [AnyKeyPath]
    @usableFromInline let read: (Input) -> Downstream.Input
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, keyPaths: [AnyKeyPath], read: @escaping (Input) -> Downstream.Input) {
        self.downstream = downstream
        self.keyPaths = keyPaths
        self.read = read
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable @inline(__always)
    func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(read(input))
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }

    @usableFromInline var description: String { keyPaths.count == 1 ? "ValueForKey" : "ValueForKeys" }

    @usableFromInline
    var customMirror: Mirror {
        if keyPaths.count == 1 { return Mirror(self, children: ["keyPath": keyPaths[0]]) }
        return Mirror(self, children: keyPaths.enumerated().map { (label: "keyPath\($0.offset)", value: $0.element as Any) })
    }
}

extension Publisher {
    /// Replaces each value by one of its properties, named by a key path: `.map(\.data)`.
    @inlinable
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Replaces each value by a pair of its properties.
    @inlinable
    public func map<T0, T1>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Replaces each value by a triple of its properties.
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}
