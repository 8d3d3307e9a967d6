import Combine
import TestSupport
import Testing

@Suite("Deferred")
struct DeferredTests {
    @Test func createsOnePublisherPerSubscriberAtSubscribeTime() {
        var created = 0
        let deferred = Deferred { () -> Just<Int> in
            created += 1
            return Just(created)
        }
        #expect(created == 0)
        var values: [Int] = []
        _ = deferred.sink { values.append($0) }
        _ = deferred.sink { values.append($0) }
        #expect(created == 2)
        #expect(values == [1, 2])
    }

    @Test func deferredFutureRunsPerSubscriber() {
        var runs = 0
        let deferred = Deferred { Future<Int, Never> { runs += 1; $0(.success(runs)) } }
        #expect(runs == 0)
        var values: [Int] = []
        _ = deferred.sink { values.append($0) }
        _ = deferred.sink { values.append($0) }
        #expect(values == [1, 2])
    }
}
