import Combine
import Foundation

/// Races several upstreams, each on its own thread, into one operator, with every value tagged
/// `(source, index)` so a test can check that nothing was lost and each upstream's order held.
public enum TaggedRace {
    /// Makes `sources` upstreams and lets `connect` attach the operator under test to them; then
    /// each upstream sends `(source, 0)…(source, perSource - 1)` from its own thread and finishes.
    public static func run(
        sources: Int, perSource: Int, connect: ([TestUpstream<(Int, Int), Never>]) -> Void
    ) {
        let upstreams = (0..<sources).map { _ in TestUpstream<(Int, Int), Never>() }
        connect(upstreams)
        onThreadsBlocking(sources) { source in
            for index in 0..<perSource { upstreams[source].send((source, index)) }
            upstreams[source].send(completion: .finished)
        }
    }

    /// How many values arrived from each source, or `nil` when some source's values arrived out of
    /// the order it sent them in.
    public static func countsIfInOrder(_ values: [(Int, Int)], sources: Int) -> [Int]? {
        var next = [Int](repeating: 0, count: sources)
        for (source, index) in values {
            guard next[source] == index else { return nil }
            next[source] = index + 1
        }
        return next
    }
}
