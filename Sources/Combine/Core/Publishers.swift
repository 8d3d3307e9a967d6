/// The namespace for the publisher types that Combine's operators return.
///
/// Each operator method on ``Publisher`` returns a value of one of the types declared in this
/// namespace (for example `Publishers.Map`). Your own code can extend it with publisher types of
/// its own, exactly as it can on Apple's platforms.
public enum Publishers {}
