/// A decoder that turns a whole input value (such as `Data`) into a `Decodable` value; what the
/// `decode(type:decoder:)` operator takes. `JSONDecoder` and `PropertyListDecoder` conform.
public protocol TopLevelDecoder<Input> {
    /// The type this decoder reads from.
    associatedtype Input

    /// Decodes a value of `type` from `from`.
    func decode<T: Decodable>(_ type: T.Type, from: Self.Input) throws -> T
}

/// An encoder that turns an `Encodable` value into a whole output value (such as `Data`); what the
/// `encode(encoder:)` operator takes. `JSONEncoder` and `PropertyListEncoder` conform.
public protocol TopLevelEncoder<Output> {
    /// The type this encoder produces.
    associatedtype Output

    /// Encodes `value`.
    func encode<T: Encodable>(_ value: T) throws -> Self.Output
}
