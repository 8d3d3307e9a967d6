// Shows how a Linux command-line program gets `DispatchQueue.main` (and `RunLoop.main`) to run
// Combine deliveries: run the main run loop, or hand the main thread to Dispatch.
#if canImport(Combine)
import Combine
#endif
import Dispatch
import Foundation

let mode = CommandLine.arguments.dropFirst().first ?? "runloop"
let subject = PassthroughSubject<Int, Never>()
var received: [Int] = []
var receivedOnRunLoop: [Int] = []
var allOnMainThread = true

let subscription = subject
    .receive(on: DispatchQueue.main)
    .sink(
        receiveCompletion: { _ in
            dispatchPrecondition(condition: .onQueue(.main))
            print("received \(received) on the main queue")
            if mode == "dispatchMain" { exit(0) }
        },
        receiveValue: { received.append($0) })

// `RunLoop.main` as a scheduler needs the main run loop to run, so only in "runloop" mode.
let runLoopSubscription = mode == "runloop"
    ? subject
        .receive(on: RunLoop.main)
        .sink(
            receiveCompletion: { _ in
                print("RunLoop.main delivered \(receivedOnRunLoop), on the main thread: \(allOnMainThread)")
            },
            receiveValue: {
                allOnMainThread = allOnMainThread && Thread.isMainThread
                receivedOnRunLoop.append($0)
            })
    : nil

DispatchQueue.global().async {
    for value in 1...3 { subject.send(value) }
    subject.send(completion: .finished)
}

switch mode {
case "dispatchMain":
    // Never returns; the completion handler above exits the process.
    dispatchMain()
default:
    // Running the main run loop serves `RunLoop.main` and also drains the main queue, both on
    // the main thread.
    RunLoop.main.run(until: Date(timeIntervalSinceNow: 1))
    print("run loop returned")
}
subscription.cancel()
runLoopSubscription?.cancel()
