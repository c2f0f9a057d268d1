import Foundation

/// How `JSONValueDecoder` reads a `Date`.
public enum DateDecodingStrategy: Sendable {
    /// An RFC 3339 date-time (fractional seconds optional) or a full date (`2026-12-01`): what a derived
    /// schema asks for (`"format": "date-time"`). The default.
    case iso8601
    /// A number of seconds since 1970-01-01T00:00:00Z (for schemas that declare the date a number).
    case secondsSince1970
    /// A number of milliseconds since 1970-01-01T00:00:00Z.
    case millisecondsSince1970
    /// The caller's parser of a date string (another format, a time zone of its choice); nil means the
    /// string is not a date, and decoding fails with the coding path.
    case formatted(@Sendable (String) -> Date?)
}
