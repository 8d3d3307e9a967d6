import Combine
import TestSupport
import Testing

@Suite("Publishers.Map / TryMap / replaceNil")
struct PublishersMapTests {
    typealias E = SingleOp.TestError

    @Test func mapTransformsValuesAndHandsUpstreamSubscriptionDown() {
        let (up, sub) = SingleOp.attach({ $0.map { $0 * 10 } })
        #expect(up.send(1) == .none)
        up.send(2)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(TestUpstream)", "value(10)", "value(20)", "finished"])
        #expect(SingleOp.calls(up) == ["request(unlimited)"])
    }

    @Test func mapPassesFailureAndDemandThrough() {
        let (up, sub) = SingleOp.attach({ $0.map { $0 + 1 } }, demand: .max(1), after: { _ in .max(2) })
        #expect(up.send(1) == .max(2))
        sub.request(.max(3))
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(TestUpstream)", "value(2)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(max(1))", "request(max(3))"])
    }

    @Test func mapCancelReachesUpstream() {
        let (up, sub) = SingleOp.attach({ $0.map { $0 } })
        sub.cancel()
        #expect(up.isCancelled)
    }

    @Test func mapFusesIntoOneMap() {
        func fuse<P: Publisher>(_ p: P) -> Publishers.Map<P, String> where P.Output == Int {
            p.map { $0 + 1 }.map { "\($0)" }
        }
        func tryFuse<P: Publisher>(_ p: P) -> Publishers.TryMap<P, Int> where P.Output == Int {
            p.map { $0 + 1 }.tryMap { $0 * 3 }
        }
        let fused = fuse(Just(1))
        var got: [String] = []
        _ = fused.sink { got.append($0) }
        #expect(got == ["2"])
        let tryFused = tryFuse(Just(1))
        var values: [Int] = []
        _ = tryFused.sink(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
        #expect(values == [6])
    }

    @Test func mapAfterTryMapFusesIntoOneTryMapOverTheSameUpstream() {
        let up = SingleOp.Upstream()
        let fused: Publishers.TryMap<SingleOp.Upstream, String> = up.tryMap { $0 + 1 }.map { "\($0)" }
        #expect(fused.upstream === up)
        // Without a type annotation the fused overload is still the one chosen, as with Apple's.
        let inferred = up.tryMap { $0 }.map { $0 * 2 }
        #expect(type(of: inferred) == Publishers.TryMap<SingleOp.Upstream, Int>.self)
        // Any number of maps and throwing maps after a map stay one stage.
        let chained: Publishers.TryMap<SingleOp.Upstream, String> =
            up.map { $0 + 1 }.tryMap { $0 * 2 }.map { $0 - 1 }.tryMap { "\($0)" }
        #expect(chained.upstream === up)
    }

    @Test func fusedTryMapThenMapDeliversThroughOneStage() {
        var mapped: [Int] = []
        let (up, sub) = SingleOp.attach({ upstream in
            upstream
                .tryMap { v -> Int in if v == 3 { throw E.boom }; return v * 10 }
                .map { v -> String in mapped.append(v); return "#\(v)" }
        })
        up.send(1)
        up.send(2)
        up.send(3)
        up.send(4)
        up.send(completion: .finished)
        // One TryMap between the upstream and the subscriber: no Map subscription in between.
        #expect(SingleOp.events(sub) == ["subscription(TryMap)", "value(#10)", "value(#20)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
        // The plain map never saw the value the throwing one rejected.
        #expect(mapped == [10, 20])
    }

    @Test func fusedTryMapsFailWithWhicheverClosureThrowsFirst() {
        var secondSaw: [Int] = []
        let (up, sub) = SingleOp.attach({ upstream -> Publishers.TryMap<SingleOp.Upstream, Int> in
            upstream
                .tryMap { v -> Int in if v == 0 { throw E.other }; return v }
                .tryMap { v -> Int in secondSaw.append(v); if v == 2 { throw E.boom }; return -v }
        })
        up.send(1)
        up.send(2)
        up.send(5)
        #expect(SingleOp.events(sub) == ["subscription(TryMap)", "value(-1)", "failure(boom)"])
        #expect(secondSaw == [1, 2])

        let (first, firstSub) = SingleOp.attach({ upstream in
            upstream
                .tryMap { v -> Int in if v == 0 { throw E.other }; return v }
                .tryMap { v -> Int in secondSaw.append(v); return v }
        })
        secondSaw = []
        first.send(0)
        #expect(SingleOp.events(firstSub) == ["subscription(TryMap)", "failure(other)"])
        #expect(secondSaw.isEmpty)
        #expect(SingleOp.calls(first) == ["request(unlimited)", "cancel"])
    }

    @Test func fusedTryMapPassesUpstreamFailureAndDemandThrough() {
        let (up, sub) = SingleOp.attach({ $0.tryMap { $0 }.map { $0 + 1 } }, demand: .max(2), after: { _ in .max(1) })
        #expect(up.send(1) == .max(1))
        sub.request(.max(3))
        up.send(completion: .failure(.other))
        #expect(SingleOp.events(sub) == ["subscription(TryMap)", "value(2)", "failure(other)"])
        #expect(SingleOp.calls(up) == ["request(max(2))", "request(max(3))"])
    }

    @Test func tryMapWrapsSubscriptionAndFailsOnThrow() {
        let (up, sub) = SingleOp.attach({ $0.tryMap { v -> Int in if v == 2 { throw E.boom }; return v } })
        up.send(1)
        up.send(2)
        up.send(3)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(TryMap)", "value(1)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }

    @Test func tryMapDemandStepByStep() {
        let (up, sub) = SingleOp.attach({ $0.tryMap { $0 } }, demand: .max(1))
        #expect(up.send(1) == .none)
        sub.request(.max(1))
        #expect(up.send(2) == .none)
        #expect(SingleOp.calls(up) == ["request(max(1))", "request(max(1))"])
        sub.cancel()
        // Spec §12: tryMap does not gate; a value after the cancel is still transformed and
        // passed on.
        #expect(up.send(3) == .none)
        #expect(SingleOp.events(sub) == ["subscription(TryMap)", "value(1)", "value(2)", "value(3)"])
        #expect(SingleOp.calls(up).last == "cancel")
    }

    @Test func tryMapForwardsUpstreamFailureAndReflects() {
        let (up, sub) = SingleOp.attach({ $0.tryMap { $0 } })
        up.send(completion: .failure(.other))
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(TryMap)", "failure(other)"])
        let subscription = sub.subscription
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "TryMap")
        #expect(subscription is CustomReflectable)
    }

    @Test func replaceNilSubstitutesValue() {
        var got: [Int] = []
        _ = [1, nil, 3].publisher.replaceNil(with: 0).sink { got.append($0) }
        #expect(got == [1, 0, 3])
    }

    // Kodeco ch. 16, example "tryMap", with the text's erratum corrected: the printed output shows
    // `Got value: 5` twice, but for `["Marin", "Shai", "Florent"]` it appears once (the book's
    // playground had "Scott" first).
    @Test func bookExampleTryMap() {
        enum NameError: Error { case tooShort(String), unknown }
        let console = SingleOp.Console(example: "tryMap")
        _ = ["Marin", "Shai", "Florent"].publisher
            .tryMap { value -> Int in
                let length = value.count
                guard length >= 5 else { throw NameError.tooShort(value) }
                return value.count
            }
            .sink(receiveCompletion: { console.print("Completed with \($0)") },
                  receiveValue: { console.print("Got value: \($0)") })
        #expect(console.lines.count == 3)
        #expect(console.lines[0] == "——— Example of: tryMap ———")
        #expect(console.lines[1] == "Got value: 5")
        #expect(console.lines[2].hasPrefix("Completed with failure("))
        #expect(console.lines[2].hasSuffix("NameError.tooShort(\"Shai\"))"))

        let plain = SingleOp.Console(example: "tryMap")
        _ = ["Marin", "Shai", "Florent"].publisher
            .map { $0.count }
            .sink(receiveCompletion: { plain.print("Completed with \($0)") },
                  receiveValue: { plain.print("Got value: \($0)") })
        #expect(plain.lines == ["——— Example of: tryMap ———", "Got value: 5", "Got value: 4", "Got value: 7",
                                "Completed with finished"])
    }

    // Book example "map vs tryMap" and its variations.
    @Test func bookExampleMapVsTryMap() {
        enum NameError: Error { case tooShort(String), unknown }
        func report(_ console: SingleOp.Console) -> (Subscribers.Completion<NameError>) -> Void {
            { completion in
                switch completion {
                case .finished: console.print("Done!")
                case .failure(.tooShort(let name)): console.print("\(name) is too short!")
                case .failure(.unknown): console.print("An unknown name error occurred")
                }
            }
        }
        let first = SingleOp.Console(example: "map vs tryMap")
        _ = Just("Hello")
            .setFailureType(to: NameError.self)
            .map { $0 + " World!" }
            .sink(receiveCompletion: report(first), receiveValue: { first.print("Got value \($0)") })
        #expect(first.lines == ["——— Example of: map vs tryMap ———", "Got value Hello World!", "Done!"])

        let second = SingleOp.Console(example: "map vs tryMap")
        _ = Just("Hello")
            .setFailureType(to: NameError.self)
            .tryMap { $0 + " World!" }
            .mapError { $0 as? NameError ?? .unknown }
            .sink(receiveCompletion: report(second), receiveValue: { second.print("Got value \($0)") })
        #expect(second.lines == first.lines)

        let third = SingleOp.Console(example: "map vs tryMap")
        _ = Just("Hello")
            .setFailureType(to: NameError.self)
            .tryMap { (value: String) -> String in throw NameError.tooShort(value) }
            .mapError { $0 as? NameError ?? .unknown }
            .sink(receiveCompletion: report(third), receiveValue: { third.print("Got value \($0)") })
        #expect(third.lines == ["——— Example of: map vs tryMap ———", "Hello is too short!"])
    }
}

