import CPCRE2

/// A PCRE2 failure: a pattern that does not compile (with the byte offset PCRE2 reports), or a match that
/// could not run to completion (resource limits, invalid UTF-8 subject).
public enum PCRE2Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// The pattern is not valid; `offset` is the byte offset in the pattern where PCRE2 stopped.
    case compile(pattern: String, offset: Int, code: Int32, message: String)
    /// The subject is not valid UTF-8; `offset` is the byte offset of the first bad byte.
    case invalidUTF8(offset: Int)
    /// The match stopped without an answer (match limit, depth limit, JIT stack, ...).
    case match(code: Int32, message: String)

    public var description: String {
        switch self {
        case let .compile(pattern, offset, _, message):
            return "invalid regular expression at offset \(offset): \(message) (pattern: \(pattern))"
        case let .invalidUTF8(offset):
            return "subject is not valid UTF-8 at byte offset \(offset)"
        case let .match(code, message):
            return "regular expression match failed (\(code)): \(message)"
        }
    }

    /// PCRE2's English text for an error code.
    static func message(for code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBufferPointer { pcre2_get_error_message_8(code, $0.baseAddress, $0.count) }
        guard n > 0 else { return "PCRE2 error \(code)" }
        return String(decoding: buffer[0..<Int(n)], as: UTF8.self)
    }
}
