#if canImport(Combine)
import Combine
#endif
import CombineSchedulers
import Foundation

/// A search-field model written the way an Apple-platform app writes it: the query is debounced
/// on an injected scheduler (`AnySchedulerOf<DispatchQueue>` from combine-schedulers), so that
/// tests drive it with a `TestScheduler` and the app uses `DispatchQueue.main`; a "request" is
/// simulated by delaying each debounced query.
public final class SearchModel {
    /// The queries that survived the debounce, in order.
    public private(set) var searches: [String] = []
    /// The "responses": each search delivered after the simulated network delay.
    public private(set) var responses: [String] = []

    private let query = PassthroughSubject<String, Never>()
    private var cancellables: Set<AnyCancellable> = []

    public init(scheduler: AnySchedulerOf<DispatchQueue>) {
        let debounced = query.debounce(for: .milliseconds(300), scheduler: scheduler)
        debounced
            .sink { [weak self] in self?.searches.append($0) }
            .store(in: &cancellables)
        debounced
            .delay(for: .milliseconds(100), scheduler: scheduler)
            .sink { [weak self] in self?.responses.append("results for \($0)") }
            .store(in: &cancellables)
    }

    /// What the text field reports on every keystroke.
    public func type(_ text: String) {
        query.send(text)
    }
}
