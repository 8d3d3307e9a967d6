import Combine
import Foundation

// "Using Combine", reference: Subjects and Subscribers (assign, sink, AnyCancellable). The book's
// UIKit objects are replaced by small classes that print what is written into them.

/// The image view of the assign entry: its `image` is optional, like `UIImageView.image`.
final class ReferenceImageView {
    var image: String? {
        didSet { io.print("imageView.image set to: \(image ?? "nil")") }
    }
    /// Read-only, like `UIActivityIndicatorView.isAnimating`: `assign` cannot write to it.
    private(set) var isAnimating = false
    private let io: ExampleIO

    init(io: ExampleIO) { self.io = io }
}

extension Catalogue {
    static var referenceSubscribers: [Example] { [
        Example(
            "ref-subjects",
            title: "CurrentValueSubject and PassthroughSubject",
            source: "Using Combine, reference: Subjects",
            book: .notPrinted
        ) { io in
            let current = CurrentValueSubject<String, Never>("initial value")
            let passthrough = PassthroughSubject<String, Never>()
            passthrough.send("sent before anyone subscribed")

            current
                .sink { io.print("currentValueSubject subscriber received \($0)") }
                .store(in: &io.subscriptions)
            passthrough
                .sink { io.print("passthroughSubject subscriber received \($0)") }
                .store(in: &io.subscriptions)

            current.send("second value")
            passthrough.send("second value")
        },

        Example("ref-assign", title: "assign", source: "Using Combine, reference: assign", book: .notPrinted) { io in
            let imageView = ReferenceImageView(io: io)
            let examplePublisher = PassthroughSubject<String, Never>()
            examplePublisher
                // `.assign(to: \.image, on: imageView)` directly does not compile: the key path's
                // value is `String?`, the output `String`. (Nor does `\.isAnimating`, which is
                // read-only: a KeyPath, not a ReferenceWritableKeyPath.)
                .map { image -> String? in
                    image
                }
                .assign(to: \.image, on: imageView)
                .store(in: &io.subscriptions)
            examplePublisher.send("photo.png")
            examplePublisher.send("avatar.png")
        },

        Example("ref-sink", title: "sink", source: "Using Combine, reference: sink", book: .notPrinted) { io in
            let examplePublisher = Just(5)
            io.print("the simple form:")
            examplePublisher.sink { value in
                io.print(".sink() received \(String(describing: value))")
            }
            .store(in: &io.subscriptions)

            io.print("the two-closure form:")
            examplePublisher.sink(receiveCompletion: { err in
                io.print(".sink() received the completion", String(describing: err))
            }, receiveValue: { value in
                io.print(".sink() received \(String(describing: value))")
            })
            .store(in: &io.subscriptions)

            io.print("let _ = on a publisher that sends later:")
            let simplePublisher = PassthroughSubject<String, Never>()
            let _ = simplePublisher.sink { data in
                io.print(".sink() received \(data)")
            }
            simplePublisher.send("never printed: the pipeline was cancelled at once")

            io.print("cancel():")
            let cancellablePipeline = simplePublisher.sink { data in
                io.print(".sink() received \(data)")
            }
            simplePublisher.send("before cancel")
            cancellablePipeline.cancel()  // when invoked, this invalidates the pipeline
            // no further data will be received by the sink
            simplePublisher.send("after cancel")
        },

        Example(
            "ref-any-cancellable",
            title: "AnyCancellable",
            source: "Using Combine, reference: AnyCancellable",
            book: .notPrinted
        ) { io in
            let remotePublisher = PassthroughSubject<String, Never>()
            var mySubscriber: AnyCancellable?
            let mySinkSubscriber = remotePublisher
                .sink { data in
                    io.print("received ", data)
                }
            mySubscriber = AnyCancellable(mySinkSubscriber)

            var cancellableSet: Set<AnyCancellable> = []
            remotePublisher
                .sink { data in
                    io.print("stored subscriber received ", data)
                }
                .store(in: &cancellableSet)

            remotePublisher.send("one")
            io.print("mySubscriber = nil")
            mySubscriber = nil
            _ = mySubscriber
            remotePublisher.send("two")
            io.print("cancellableSet.removeAll()")
            cancellableSet.removeAll()
            remotePublisher.send("three")
            io.print("(nothing more received)")
        },
    ] }
}
