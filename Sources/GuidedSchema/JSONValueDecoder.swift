import Foundation

/// Decodes a complete `JSONValue` into a `Decodable` type, the last step of guided generation.
///
/// Besides the standard containers it reads `Date` from an RFC 3339 `date-time` or `full-date` string
/// (`RFC3339Timestamp`), `URL` and `UUID` from strings, `Data` from base64, and `Decimal` from the exact number literal
/// (never through `Double`). Errors are `DecodingError`s whose context carries the coding path, and whose
/// description starts with it as a JSON Pointer: `at /items/0/id: expected an integer, found string "x"`.
public struct JSONValueDecoder: Sendable {
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// How dates are read (default: ISO 8601 strings).
    public var dateDecodingStrategy: DateDecodingStrategy

    public init(dateDecodingStrategy: DateDecodingStrategy = .iso8601) {
        self.dateDecodingStrategy = dateDecodingStrategy
    }

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONValueDecoding(value: value, codingPath: [], userInfo: userInfo, dates: dateDecodingStrategy).decodeValue(T.self)
    }

    /// Parses `text` (strictly) and decodes it.
    public func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decode(type, from: try JSONParser.parse(text))
    }
}

/// The `Decoder` over one value at one coding path.
struct JSONValueDecoding: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfoStorage: [CodingUserInfoKey: any Sendable]
    let dates: DateDecodingStrategy

    init(value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable],
         dates: DateDecodingStrategy = .iso8601) {
        self.value = value
        self.codingPath = codingPath
        self.userInfoStorage = userInfo
        self.dates = dates
    }

    var userInfo: [CodingUserInfoKey: Any] { userInfoStorage }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw JSONValueDecoding.mismatch(at: codingPath, expected: "an object", found: value) }
        return KeyedDecodingContainer(JSONValueKeyedContainer<Key>(object: object, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw JSONValueDecoding.mismatch(at: codingPath, expected: "an array", found: value) }
        return JSONValueUnkeyedContainer(items: items, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { JSONValueSingleContainer(decoder: self) }

    func child(_ value: JSONValue, _ key: any CodingKey) -> JSONValueDecoding {
        JSONValueDecoding(value: value, codingPath: codingPath + [key], userInfo: userInfoStorage, dates: dates)
    }

    /// Decodes `T`, reading Foundation's special types from their JSON spelling.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self { return try decodeDate() as! T }
        if T.self == URL.self {
            guard case .string(let s) = value, let url = URL(string: s) else {
                throw JSONValueDecoding.mismatch(at: codingPath, expected: "a URL string", found: value)
            }
            return url as! T
        }
        if T.self == UUID.self {
            guard case .string(let s) = value, let uuid = UUID(uuidString: s) else {
                throw JSONValueDecoding.mismatch(at: codingPath, expected: "a UUID string", found: value)
            }
            return uuid as! T
        }
        if T.self == Decimal.self {
            guard case .number(let n) = value else {
                throw JSONValueDecoding.mismatch(at: codingPath, expected: "a number", found: value)
            }
            // Decimal holds 38 significant digits and powers of ten in -128...127: refuse, never round.
            guard n.digits.count <= 38, (-128...127).contains(n.exponent),
                let d = Decimal(string: n.text, locale: Locale(identifier: "en_US_POSIX"))
            else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: JSONValueDecoding.at(codingPath) + "\(n.text) cannot be held exactly by Decimal"))
            }
            return d as! T
        }
        if T.self == Data.self {
            guard case .string(let s) = value, let data = Data(base64Encoded: s) else {
                throw JSONValueDecoding.mismatch(at: codingPath, expected: "a base64 string", found: value)
            }
            return data as! T
        }
        if T.self == JSONValue.self { return value as! T }
        return try T(from: self)
    }

    func decodeDate() throws -> Date {
        switch dates {
        case .iso8601: return try decodeISO8601Date()
        case .secondsSince1970: return Date(timeIntervalSince1970: try epochNumber())
        case .millisecondsSince1970: return Date(timeIntervalSince1970: try epochNumber() / 1000)
        case .formatted(let parse):
            guard case .string(let s) = value else { throw JSONValueDecoding.mismatch(at: codingPath, expected: "a date string", found: value) }
            if let d = parse(s) { return d }
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: JSONValueDecoding.at(codingPath) + "\(JSONValueDecoding.describeValue(value)) is not a date in the expected format"))
        }
    }

    private func epochNumber() throws -> Double {
        guard case .number = value, let n = Double(value.serialized()) else {
            throw JSONValueDecoding.mismatch(at: codingPath, expected: "a number of seconds or milliseconds since 1970", found: value)
        }
        return n
    }

    /// The default strategy: exactly `format: date-time` (plus a bare full-date), so every masked or
    /// validated value decodes.
    func decodeISO8601Date() throws -> Date {
        guard case .string(let s) = value else { throw JSONValueDecoding.mismatch(at: codingPath, expected: "an RFC 3339 date string", found: value) }
        if let d = RFC3339Timestamp.date(from: s) { return d }
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: JSONValueDecoding.at(codingPath) + "\(JSONValueDecoding.describeValue(value)) is not an RFC 3339 date-time"))
    }

    static func at(_ path: [any CodingKey]) -> String {
        "at " + (path.isEmpty ? "the root" : path.map { "/" + JSONPointer.escape($0.intValue.map(String.init) ?? $0.stringValue) }.joined()) + ": "
    }
}

extension JSONValueDecoding {
    static func describeValue(_ v: JSONValue) -> String {
        let text = v.serialized()
        let short = text.count > 40 ? String(text.prefix(37)) + "..." : text
        switch v {
        case .null: return "null"
        case .bool: return "boolean \(short)"
        case .number: return "number \(short)"
        case .string: return "string \(short)"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    static func mismatch(at path: [any CodingKey], expected: String, found: JSONValue) -> DecodingError {
        let context = DecodingError.Context(codingPath: path, debugDescription: JSONValueDecoding.at(path) + "expected \(expected), found \(JSONValueDecoding.describeValue(found))")
        if case .null = found { return .valueNotFound(Any.self, context) }
        return .typeMismatch(Any.self, context)
    }
}
