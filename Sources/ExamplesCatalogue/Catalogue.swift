/// The catalogue of the source books' examples, in book order.
///
/// Each group lives in its own file as an `extension Catalogue`; the list below is the one place
/// that decides which groups are built (groups whose operators have not landed in `Combine` yet
/// wait in `Pending/`, which the package excludes from the build).
public enum Catalogue {
    /// Every example, in book order.
    public static var all: [Example] {
        groups.flatMap { $0 }
    }

    /// The example with the given slug, if any.
    public static func example(named slug: String) -> Example? {
        all.first { $0.slug == slug }
    }

    static var groups: [[Example]] {
        [
        ]
    }
}
