import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Examples of this group whose operators have not landed in Combine yet.

extension Catalogue {
    static var networkingPending: [Example] { [

        Example("share", title: "share", source: "Kodeco ch. 13, share()", timing: .asynchronous) { io in
            let shared = FixtureURLProtocol.session
                .dataTaskPublisher(for: URL(string: "https://www.raywenderlich.com")!)
                .map(\.data)
                .print("shared", to: ExampleStream(io))
                .share()

            io.print("subscribing first")

            var finished = 0
            let subscription1 = shared.sink(
                receiveCompletion: { _ in finished += 1; if finished == 2 { io.finish() } },
                receiveValue: { io.print("subscription1 received: '\($0)'") }
            )

            io.print("subscribing second")

            let subscription2 = shared.sink(
                receiveCompletion: { _ in finished += 1; if finished == 2 { io.finish() } },
                receiveValue: { io.print("subscription2 received: '\($0)'") }
            )
            io.whenFinished {
                subscription1.cancel()
                subscription2.cancel()
            }
        },

        Example("multicast", title: "multicast", source: "Kodeco ch. 13, multicast(subject:)", timing: .asynchronous) { io in
            let subject = PassthroughSubject<Data, URLError>()

            let multicasted = FixtureURLProtocol.session
                .dataTaskPublisher(for: URL(string: "https://www.raywenderlich.com")!)
                .map(\.data)
                .print("multicast", to: ExampleStream(io))
                .multicast(subject: subject)

            var finished = 0
            let subscription1 = multicasted
                .sink(
                    receiveCompletion: { _ in finished += 1; if finished == 2 { io.finish() } },
                    receiveValue: { io.print("subscription1 received: '\($0)'") }
                )

            let subscription2 = multicasted
                .sink(
                    receiveCompletion: { _ in finished += 1; if finished == 2 { io.finish() } },
                    receiveValue: { io.print("subscription2 received: '\($0)'") }
                )

            let cancellable = multicasted.connect()
            io.whenFinished {
                subscription1.cancel()
                subscription2.cancel()
                cancellable.cancel()
            }
        },
    ] }
}
