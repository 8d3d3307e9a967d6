import Foundation

/// One Hacker News story, as the API's `item/<id>.json` describes it.
///
/// Items without a `url` (Ask HN posts, comments) fail to decode and are skipped, as in the book.
public struct Story: Codable, Sendable, Hashable {
    /// The item id.
    public let id: Int
    /// The headline.
    public let title: String
    /// The author's user name.
    public let by: String
    /// Seconds since 1970 when it was posted.
    public let time: TimeInterval
    /// The linked page.
    public let url: String

    /// A story from its fields.
    public init(id: Int, title: String, by: String, time: TimeInterval, url: String) {
        self.id = id
        self.title = title
        self.by = by
        self.time = time
        self.url = url
    }
}

extension Story: Comparable {
    /// Newest first: sorting a list of stories puts the latest on top, as the book's list does.
    public static func < (lhs: Story, rhs: Story) -> Bool {
        lhs.time > rhs.time
    }
}

extension Story: CustomDebugStringConvertible {
    /// The book's console form of a story (title, author, link, a rule).
    public var debugDescription: String {
        "\n\(title)\nby \(by)\n\(url)\n-----"
    }
}
