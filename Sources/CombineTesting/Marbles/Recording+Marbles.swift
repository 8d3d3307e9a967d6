import Combine

extension Recording {
    /// Draws the recording as a marble diagram from its start, with `symbol` choosing each
    /// value's character (`nil` draws `?`). See ``MarbleDiagram`` for the alphabet.
    public func marbles(
        frameDuration: TestScheduler.SchedulerTimeType.Stride = 1,
        symbol: (Value) -> Character?
    ) -> MarbleDiagram {
        MarbleDiagram(events: events, start: startTime, frameDuration: frameDuration, symbol: symbol)
    }

    /// Draws the recording with each value's character found by reverse lookup in `values`
    /// (the same dictionary used to build the input); values not in it draw as `?`.
    public func marbles(
        values: [Character: Value],
        frameDuration: TestScheduler.SchedulerTimeType.Stride = 1
    ) -> MarbleDiagram where Value: Equatable {
        marbles(frameDuration: frameDuration) { value in values.first { $0.value == value }?.key }
    }
}

extension Recording where Value == String {
    /// Draws a recording of one-character strings; longer or empty strings draw as `?`.
    public func marbles(frameDuration: TestScheduler.SchedulerTimeType.Stride = 1) -> MarbleDiagram {
        marbles(frameDuration: frameDuration) { $0.count == 1 ? $0.first : nil }
    }
}

extension Recording where Value == Character {
    /// Draws a recording of characters, each as itself.
    public func marbles(frameDuration: TestScheduler.SchedulerTimeType.Stride = 1) -> MarbleDiagram {
        marbles(frameDuration: frameDuration) { $0 }
    }
}

extension Recording where Value: BinaryInteger {
    /// Draws a recording of integers: 0 to 9 as digits, anything else as `?`.
    public func marbles(frameDuration: TestScheduler.SchedulerTimeType.Stride = 1) -> MarbleDiagram {
        marbles(frameDuration: frameDuration) { value in
            (0...9).contains(value) ? Character(String(value)) : nil
        }
    }
}

extension RecordingSubscriber {
    /// Draws what was recorded so far, from the recorder's creation; see ``Recording/marbles(frameDuration:symbol:)``.
    public func marbles(
        frameDuration: TestScheduler.SchedulerTimeType.Stride = 1,
        symbol: (Input) -> Character?
    ) -> MarbleDiagram {
        recording.marbles(frameDuration: frameDuration, symbol: symbol)
    }

    /// Draws what was recorded so far, values found by reverse lookup in `values`.
    public func marbles(
        values: [Character: Input],
        frameDuration: TestScheduler.SchedulerTimeType.Stride = 1
    ) -> MarbleDiagram where Input: Equatable {
        recording.marbles(values: values, frameDuration: frameDuration)
    }
}

extension RecordingSubscriber where Input == String {
    /// Draws what was recorded so far (one-character strings as themselves).
    public func marbles(frameDuration: TestScheduler.SchedulerTimeType.Stride = 1) -> MarbleDiagram {
        recording.marbles(frameDuration: frameDuration)
    }
}

extension RecordingSubscriber where Input == Character {
    /// Draws what was recorded so far (characters as themselves).
    public func marbles(frameDuration: TestScheduler.SchedulerTimeType.Stride = 1) -> MarbleDiagram {
        recording.marbles(frameDuration: frameDuration)
    }
}

extension RecordingSubscriber where Input: BinaryInteger {
    /// Draws what was recorded so far (0 to 9 as digits).
    public func marbles(frameDuration: TestScheduler.SchedulerTimeType.Stride = 1) -> MarbleDiagram {
        recording.marbles(frameDuration: frameDuration)
    }
}

extension MarbleDiagram {
    /// The events `diagram` describes, placed on the clock from `start`, for comparing with a
    /// recorder's ``RecordingSubscriber/timedEvents`` when exact times matter. Frame numbers
    /// before a `^` are negative, so such events land before `start`.
    public static func events(
        _ diagram: String,
        start: TestScheduler.SchedulerTimeType = 0,
        frameDuration: TestScheduler.SchedulerTimeType.Stride = 1
    ) throws(MarbleDiagramError) -> [Recorded<RecordedEvent<String, Never>>] {
        try MarbleScript<String, Never>(diagram, allowsSubscriptionMarker: true, value: { String($0) }, failure: nil)
            .timed(from: start, frameDuration: frameDuration)
    }

    /// The events `diagram` describes with values from `values` and `error` at `#`, placed on the
    /// clock from `start`.
    public static func events<Value, Failure: Error>(
        _ diagram: String,
        values: [Character: Value],
        error: Failure? = nil,
        start: TestScheduler.SchedulerTimeType = 0,
        frameDuration: TestScheduler.SchedulerTimeType.Stride = 1
    ) throws(MarbleDiagramError) -> [Recorded<RecordedEvent<Value, Failure>>] {
        try MarbleScript<Value, Failure>(diagram, allowsSubscriptionMarker: true, value: { values[$0] }, failure: error)
            .timed(from: start, frameDuration: frameDuration)
    }
}
