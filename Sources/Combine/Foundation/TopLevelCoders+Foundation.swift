#if canImport(Foundation)
import Foundation

/// `JSONEncoder` turns a value into JSON `Data`, which is what `encode(encoder:)` publishes.
extension JSONEncoder: TopLevelEncoder {}

/// `JSONDecoder` reads `Data`, typically a network response body, for `decode(type:decoder:)`.
extension JSONDecoder: TopLevelDecoder {}

/// `PropertyListEncoder` produces property-list `Data` for `encode(encoder:)`.
extension PropertyListEncoder: TopLevelEncoder {}

/// `PropertyListDecoder` reads property-list `Data` for `decode(type:decoder:)`.
extension PropertyListDecoder: TopLevelDecoder {}
#endif
