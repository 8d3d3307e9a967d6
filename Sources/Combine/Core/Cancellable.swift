/// A type whose activity or action can be cancelled.
///
/// Cancelling releases the resources the activity holds. Calling `cancel()` more than once, or
/// after the activity has ended, is harmless.
public protocol Cancellable {
    /// Cancels the activity.
    func cancel()
}
