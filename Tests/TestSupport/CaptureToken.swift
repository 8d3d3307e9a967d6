/// An object for a closure to capture, so a test holding it weakly can see when the closure has
/// been released.
public final class CaptureToken: Sendable {
    public init() {}
}
