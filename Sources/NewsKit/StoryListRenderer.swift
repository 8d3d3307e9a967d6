import Foundation

/// Turns a list of stories into the text the `news` command prints.
public enum StoryListRenderer {
    /// How current a list is, as its header says.
    public enum Freshness: Equatable, Sendable {
        /// Loaded from the API at this time.
        case updated(Date)
        /// Read from a snapshot of the API whose newest item is from this time: a snapshot does
        /// not get newer when it is read, so the header shows its time, not the reading's.
        case snapshot(Date)
    }

    /// The list loaded from the API at `updated`; see ``render(_:keywords:freshness:)``.
    public static func render(_ stories: [Story], keywords: [String] = [], updated: Date) -> String {
        render(stories, keywords: keywords, freshness: .updated(updated))
    }

    /// The list as numbered plain-text entries (title; author and time; link), under a header
    /// saying how current it is and what it is filtered by. An empty list says so in one line.
    public static func render(_ stories: [Story], keywords: [String] = [], freshness: Freshness) -> String {
        guard !stories.isEmpty else {
            if keywords.isEmpty { return "No stories.\n" }
            let list = keywords.map { "\"\($0)\"" }.joined(separator: ", ")
            return "No stories match \(list).\n"
        }
        var text = "Hacker News — \(stories.count) newest "
        text += stories.count == 1 ? "story" : "stories"
        switch freshness {
        case .updated(let date): text += ", updated \(format(date))\n"
        case .snapshot(let date): text += ", from a snapshot of \(format(date))\n"
        }
        if !keywords.isEmpty {
            text += "Filtered by: \(keywords.joined(separator: ", "))\n"
        }
        let width = String(stories.count).count
        for (index, story) in stories.enumerated() {
            let number = String(index + 1)
            let pad = String(repeating: " ", count: width - number.count)
            let indent = String(repeating: " ", count: width + 2)
            text += "\n\(pad)\(number). \(story.title)\n"
            text += "\(indent)by \(story.by), \(format(Date(timeIntervalSince1970: story.time)))\n"
            text += "\(indent)\(story.url)\n"
        }
        return text
    }

    private static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}
