import Combine
import Foundation

/// Stand-in for UIKit's `UIImage` in the "Catching and retrying" examples: it prints the way the
/// playground console prints an image, without the memory address (which differs on every run of
/// the book's playground too).
struct UIImage: CustomStringConvertible {
    let name: String
    let width: Int
    let height: Int

    /// The images the book's playground bundles.
    init?(named name: String) {
        switch name {
        case "lq.jpg": (width, height) = (300, 300)
        case "hq.jpg": (width, height) = (1835, 2446)
        case "na.jpg": (width, height) = (200, 200)
        default: return nil
        }
        self.name = name
    }

    var description: String { "<UIImage named(\(name)) {\(width), \(height)}>" }
}

/// The playground's photo service: low quality always works; high quality fails, either always
/// or for the first `failingTimes` subscriptions. The failure count lives in a shared box so it
/// survives `retry` re-subscribing to the same publisher value.
final class PhotoService {
    enum Quality: CustomStringConvertible {
        case high, low
        var description: String { self == .high ? "high" : "low" }
    }

    enum Error: Swift.Error, CustomStringConvertible {
        case invalidImage(quality: Quality)
        var description: String {
            switch self {
            case .invalidImage(let quality): return "Failed fetching image with \(quality) quality"
            }
        }
    }

    typealias Publisher = AnyPublisher<UIImage, Error>

    private final class Attempts {
        var failures = 0
    }

    func fetchPhoto(quality: Quality, failingTimes: Int = .max) -> Publisher {
        let attempts = Attempts()
        return Deferred {
            Future<UIImage, Error> { promise in
                if quality == .high, attempts.failures < failingTimes {
                    attempts.failures += 1
                    promise(.failure(.invalidImage(quality: quality)))
                } else {
                    promise(.success(UIImage(named: quality == .high ? "hq.jpg" : "lq.jpg")!))
                }
            }
        }
        .eraseToAnyPublisher()
    }
}
