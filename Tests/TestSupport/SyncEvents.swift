import Combine

/// Subscribes to `publisher` with unlimited demand and returns what arrived before `subscribe`
/// returned, as text: each value as `"\(value)"`, then `"finished"` or `"failure(error)"`. For
/// publishers that deliver synchronously (`Just`, sequences, `Optional` and `Result` publishers).
public func syncEvents<P: Publisher>(_ publisher: P) -> [String] {
    var events: [String] = []
    _ = publisher.sink(
        receiveCompletion: { completion in
            switch completion {
            case .finished: events.append("finished")
            case .failure(let error): events.append("failure(\(error))")
            }
        },
        receiveValue: { events.append("\($0)") })
    return events
}
