extension Publishers {
    /// A publisher that republishes its upstream's values and completion, and stops the process
    /// with a fatal error if the upstream fails.
    ///
    /// Use it to state an invariant ("this cannot fail") and to get a `Never` failure type. The
    /// check is active in release builds too, like `fatalError`.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The upstream's values; a failure stops the process instead of being published.
        public typealias Output = Upstream.Output

        /// A failure stops the process, so none is ever delivered.
        public typealias Failure = Never

        /// The publisher that must not fail.
        public let upstream: Upstream

        /// Put at the start of the fatal error message.
        public let prefix: String

        /// The file reported with the fatal error.
        public let file: StaticString

        /// The line reported with the fatal error.
        public let line: UInt

        /// Makes a publisher that traps, reporting `prefix`, `file` and `line`, if `upstream` fails.
        @inlinable
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Attaches `subscriber` through the checking stage.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

extension Publisher {
    /// Stops the process with a fatal error if the upstream fails; otherwise republishes
    /// everything. The failure type becomes `Never`.
    ///
    /// ```swift
    /// Just("Hello")
    ///     .setFailureType(to: MyError.self)
    ///     .assertNoFailure("Greeting")
    ///     .sink { print("Got value: \($0)") }
    /// ```
    ///
    /// The fatal error's message is `"<prefix> Unexpected failure: <error>"` (no leading space
    /// without a prefix), reported at `file` and `line`. `file` defaults to the caller's full
    /// path, as Apple's `#file` does (Apple's module is built in the Swift 5 language mode, where
    /// `#file` is the path; in this Swift 6 module `#file` would be the shorter file ID).
    @inlinable
    public func assertNoFailure(_ prefix: String = "", file: StaticString = #filePath, line: UInt = #line) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}

extension Publishers.AssertNoFailure {
    /// The checking stage; shows itself as `AssertNoFailure`. Like Apple's, it keeps no state: the
    /// upstream's subscription goes downstream untouched (every time one arrives), and values and
    /// `finished` are passed on in arrival order. Any failure stops the process, even one that
    /// follows a `finished`.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: StatelessStage
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        @usableFromInline let downstream: Downstream
        @usableFromInline let prefix: String
        @usableFromInline let file: StaticString
        @usableFromInline let line: UInt
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
            self.downstream = downstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                downstream.receive(completion: .finished)
            case .failure(let error):
                let message = prefix.isEmpty ? "Unexpected failure: \(error)" : "\(prefix) Unexpected failure: \(error)"
                fatalError(message, file: file, line: line)
            }
        }

        @usableFromInline var description: String { "AssertNoFailure" }

        @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> { ["file": file, "line": line, "prefix": prefix] }
    }
}

// Sendable when everything it stores is.
extension Publishers.AssertNoFailure: Sendable where Upstream: Sendable {}

/// The stage hands the upstream's subscription straight down and keeps no reference to it, so it
/// lets go of it exactly when its downstream does (see `Publishers.Map.Inner`).
extension Publishers.AssertNoFailure.Inner: ReleasesSubscriptionWhenDone where Downstream: ReleasesSubscriptionWhenDone {}
