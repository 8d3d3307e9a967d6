// Row 9c: a property of an `@Observable` model. `ObservableModel` is the model of the workload
// (Tributary's `publisher(for:on:)`, in `TributaryBench` and `TributaryProfile`) and of its
// plain baseline (`PlainObservationLoop`, in `BaselineBench` and `TributaryProfile`), so this
// file uses nothing but the Observation framework.

import Observation

/// The `@Observable` counterpart of workload 9's `Model`.
@Observable
final class ObservableModel {
    var count = 0
}

/// The least any Combine bridge over Observation pays per change: read the property under
/// `withObservationTracking`, and when the tracking reports a change (from inside `willSet`),
/// queue the next read for the next turn, which `drain()` runs. Single-threaded, no demand, no
/// subscriber: a hand-written loop over one model.
final class PlainObservationLoop: @unchecked Sendable {
    // @unchecked: used from one thread only; `onChange` must be `@Sendable`.
    let model: ObservableModel
    private(set) var sum = 0
    private var readPending = false

    init(_ model: ObservableModel) {
        self.model = model
        read()
    }

    private func read() {
        readPending = false
        sum &+= withObservationTracking { model.count } onChange: { self.readPending = true }
    }

    /// The next turn: the read the last change asked for, if any.
    func drain() {
        if readPending { read() }
    }
}
