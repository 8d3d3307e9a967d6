import Combine
import Foundation

extension ExampleContext {
    /// A repeating tick every `interval`, starting one interval from now, emitting the current
    /// date: the stand-in for the books' `Timer.publish(every:on:in:).autoconnect()` that runs on
    /// any scheduler (the `Timer` publisher itself only runs on a `RunLoop`).
    public func timer(every interval: S.SchedulerTimeType.Stride) -> AnyPublisher<Date, Never> {
        let subject = PassthroughSubject<Date, Never>()
        let scheduler = self.scheduler
        let io = self.io
        return Deferred { () -> AnyPublisher<Date, Never> in
            let repeating = scheduler.schedule(
                after: scheduler.now.advanced(by: interval),
                interval: interval
            ) {
                subject.send(io.now())
            }
            return subject
                .handleEvents(receiveCancel: { repeating.cancel() })
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}
