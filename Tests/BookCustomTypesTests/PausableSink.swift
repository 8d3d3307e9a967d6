// Book code from Kodeco, "Combine: Asynchronous Programming with Swift", ch. 18 "Custom
// Publishers & Handling Backpressure", copied unchanged. It must compile against our Combine as it
// does against Apple's.

import Combine
import Foundation

protocol Pausable {
  var paused: Bool { get }
  func resume()
}

// 1
final class PausableSubscriber<Input, Failure: Error>:
  Subscriber, Pausable, Cancellable {
  // 2
  let combineIdentifier = CombineIdentifier()

  // 3
  let receiveValue: (Input) -> Bool
  // 4
  let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

  // 5
  private var subscription: Subscription? = nil
  // 6
  var paused = false

  // 7
  init(receiveValue: @escaping (Input) -> Bool,
       receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void) {
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
  }

  // 8
  func cancel() {
    subscription?.cancel()
    subscription = nil
  }

  func receive(subscription: Subscription) {
    // 9
    self.subscription = subscription
    // 10
    subscription.request(.max(1))
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    // 11
    paused = receiveValue(input) == false
    // 12
    return paused ? .none : .max(1)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    // 13
    receiveCompletion(completion)
    subscription = nil
  }

  func resume() {
    guard paused else { return }

    paused = false
    // 14
    subscription?.request(.max(1))
  }
}

extension Publisher {
  // 15
  func pausableSink(
    receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
    receiveValue: @escaping ((Output) -> Bool))
    -> Pausable & Cancellable {
    // 16
    let pausable = PausableSubscriber(
      receiveValue: receiveValue,
      receiveCompletion: receiveCompletion)
    self.subscribe(pausable)
    // 17
    return pausable
  }
}
