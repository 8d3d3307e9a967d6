import TributaryLocks

/// A publisher that replays a fixed, recorded list of values and a completion to each subscriber.
///
/// Build it from arrays (``init(output:completion:)``), by recording step by step
/// (``init(record:)``), or from a ``Recording``. Demand is honoured: values wait until requested,
/// and the completion follows the last value at once. Records of `Codable` values are `Codable`,
/// so a captured stream can be saved and replayed in tests.
public struct Record<Output, Failure: Error>: Publisher {
    /// The values and the completion that every subscriber receives.
    public let recording: Recording

    /// Makes a record by letting `record` add values and a completion to an empty recording.
    @inlinable
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Makes a record that replays `recording`.
    @inlinable
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Makes a record of `output` followed by `completion`.
    @inlinable
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.recording = Recording(output: output, completion: completion)
    }

    /// Replays the recording to `subscriber`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        if recording.output.isEmpty {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
            return
        }
        // `request(_:)` is reached through the `Subscription` existential, unspecialised; the
        // delivery loop is handed over as a closure built here, compiled for the subscriber.
        subscriber.receive(
            subscription: Inner(recording: recording, downstream: subscriber, deliver: { $0.deliver($1) }))
    }
}

extension Record {
    /// A list of values followed by one completion, built by adding values and then a completion.
    ///
    /// Adding a value after the completion, or a second completion, is a programming error and
    /// traps, as on Apple's platforms.
    public struct Recording {
        /// What the recording accepts as values.
        public typealias Input = Output

        @usableFromInline
        var values: [Output]

        @usableFromInline
        var end: Subscribers.Completion<Failure>?

        /// The recorded values.
        public var output: [Output] { values }

        /// The recorded completion; `.finished` while none has been added.
        public var completion: Subscribers.Completion<Failure> { end ?? .finished }

        /// An empty recording, ready for values.
        @inlinable
        public init() {
            values = []
            end = nil
        }

        /// A finished recording of `output` then `completion`.
        @inlinable
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            values = output
            end = completion
        }

        /// Adds a value.
        @inlinable
        public mutating func receive(_ input: Input) {
            if end != nil { APIViolation.unexpected("Record.Recording: a value was added after the completion.") }
            values.append(input)
        }

        /// Adds the completion; nothing can be added after it.
        @inlinable
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            if end != nil { APIViolation.unexpected("Record.Recording: a second completion was added.") }
            end = completion
        }
    }
}

extension Record: Sendable where Output: Sendable, Failure: Sendable {}
extension Record.Recording: Sendable where Output: Sendable, Failure: Sendable {}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    @usableFromInline
    enum CodingKeys: String, CodingKey {
        case output
        case completion
    }

    /// Decodes a recording written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        values = try container.decode([Output].self, forKey: .output)
        end = try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion)
    }

    /// Encodes the values and the completion.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(values, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }

    /// Encodes the recording into `encoder`; the same as ``encode(to:)``.
    public func encode(into encoder: any Encoder) throws {
        try encode(to: encoder)
    }
}

extension Record: Codable where Output: Codable, Failure: Codable {
    @usableFromInline
    enum CodingKeys: String, CodingKey {
        case recording
    }

    /// Decodes a record written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recording = try container.decode(Recording.self, forKey: .recording)
    }

    /// Encodes the recording.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}

extension Record {
    /// The subscription: values as demanded, then the completion right after the last one.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline
        struct State {
            @usableFromInline var downstream: Downstream?
            @usableFromInline var index = 0
            @usableFromInline var demand = Subscribers.Demand.none
            /// Who runs the delivery loop.
            @usableFromInline var role = DeliveryFlag()

            @inlinable
            init(downstream: Downstream) {
                self.downstream = downstream
            }
        }

        @usableFromInline
        enum Step {
            case value(Output, Downstream)
            case complete(Downstream)
            case idle
        }

        @usableFromInline
        let recording: Recording

        @usableFromInline
        let state: LockedState<State>

        /// `deliver(_:)`, compiled for the concrete subscriber where the subscription was created.
        @usableFromInline
        let specializedDeliver: (Inner, Subscribers.Demand) -> Void

        @inlinable
        init(
            recording: Recording, downstream: Downstream,
            deliver: @escaping (Inner, Subscribers.Demand) -> Void
        ) {
            self.specializedDeliver = deliver
            self.recording = recording
            state = LockedState(State(downstream: downstream))
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // Apple ignores request(.none) on this subscription: no trap, nothing forwarded.
            guard demand != .none else { return }
            specializedDeliver(self, demand)
        }

        /// Adds `demand` and, unless another call is already delivering, delivers values while
        /// there is demand, then the completion after the last value.
        @inlinable
        func deliver(_ demand: Subscribers.Demand) {
            var extra = Subscribers.Demand.none
            var first = true
            while true {
                let step = state.withLock { state -> Step in
                    if first {
                        guard state.downstream != nil else { return .idle }
                        state.demand += demand
                        guard state.role.tryTake() else { return .idle }
                        first = false
                    }
                    state.demand += extra
                    guard let downstream = state.downstream else {
                        state.role.release()
                        return .idle
                    }
                    if state.index >= recording.values.count {
                        state.downstream = nil
                        state.role.release()
                        return .complete(downstream)
                    }
                    guard state.demand > 0 else {
                        state.role.release()
                        return .idle
                    }
                    state.demand -= 1
                    defer { state.index += 1 }
                    return .value(recording.values[state.index], downstream)
                }
                switch step {
                case .idle:
                    return
                case .complete(let downstream):
                    downstream.receive(completion: recording.completion)
                    return
                case .value(let value, let downstream):
                    extra = downstream.receive(value)
                }
            }
        }

        @inlinable
        func cancel() {
            let released = state.withLock { state in
                defer { state.downstream = nil }
                return state.downstream
            }
            withExtendedLifetime(released) {}
        }

        @usableFromInline
        var description: String {
            // Apple's: the recorded values while there is something left to deliver, then this.
            state.withLock { $0.downstream == nil } ? "Cancelled Events" : String(describing: recording.output)
        }

        /// Apple's children: the recorded values, empty once the subscription has finished or been
        /// cancelled (nothing is left to deliver), and the completion.
        @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> {
            let ended = state.withLock { $0.downstream == nil }
            return ["sequence": ended ? [] : recording.output, "completion": recording.completion]
        }
    }
}
