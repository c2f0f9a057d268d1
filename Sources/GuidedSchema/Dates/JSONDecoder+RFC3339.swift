import Foundation

extension JSONDecoder.DateDecodingStrategy {
    /// Dates as RFC 3339 text, exactly what `JSONValueDecoder` and `format: date-time` accept (lowercase
    /// `t`/`z` and fractional seconds included): the strategy to use with `JSONDecoder` for a type whose
    /// schema was derived. Foundation's `.iso8601` rejects fractional seconds and lowercase separators that
    /// a masked `date-time` may contain.
    public static var rfc3339: JSONDecoder.DateDecodingStrategy {
        .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339Timestamp.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\(JSONValue.string(text).serialized()) is not an RFC 3339 date-time")
            }
            return date
        }
    }
}
