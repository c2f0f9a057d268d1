import CPCRE2

/// A compiled PCRE2 (8-bit) regular expression, JIT-compiled when the platform supports it.
///
/// Sharing: the compiled code is immutable after `init` (JIT compilation happens there, once), and PCRE2
/// documents that one compiled pattern may be matched from many threads at once, so `PCRE2Regex` is
/// `Sendable`. Matching needs scratch space ("match data"): `matches(_:)` and `firstMatch(in:)` create it for
/// the call (one small allocation), while a `PCRE2Matcher` owns its own and reuses it across matches, for
/// hot loops such as a pre-tokenizer. A matcher is not `Sendable`: make one per thread / task.
///
/// ```swift
/// let re = try PCRE2Regex("[0-9]+")
/// re.matches("abc 42")        // true (unanchored search)
/// ```
public struct PCRE2Regex: Sendable {
    /// Owns the `pcre2_code`, freed with the last reference.
    final class Code: @unchecked Sendable {
        // @unchecked: the pointer is written once in init and only read afterwards; PCRE2 guarantees that
        // matching does not modify compiled code, so concurrent reads are safe.
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { pcre2_code_free_8(pointer) }
    }

    let code: Code
    /// The pattern's source text.
    public let pattern: String
    public let options: PCRE2Options
    /// Whether PCRE2 JIT-compiled the pattern (otherwise the interpreter runs it, with the same results).
    public let isJIT: Bool

    /// Compiles `pattern`.
    /// - Throws: `PCRE2Error.compile` with the byte offset of the problem.
    public init(_ pattern: String, options: PCRE2Options = .unicode, jit: Bool = true) throws(PCRE2Error) {
        var errorCode: Int32 = 0
        var errorOffset = 0
        let compiled: OpaquePointer? = pattern.utf8.withContiguousStorageIfAvailable { buf in
            pcre2_compile_8(buf.baseAddress ?? UnsafePointer(bitPattern: 1), buf.count, options.rawValue,
                            &errorCode, &errorOffset, nil)
        } ?? {
            let bytes = Array(pattern.utf8)
            return bytes.withUnsafeBufferPointer { buf in
                pcre2_compile_8(buf.baseAddress, buf.count, options.rawValue, &errorCode, &errorOffset, nil)
            }
        }()
        guard let compiled else {
            throw .compile(pattern: pattern, offset: errorOffset, code: errorCode, message: PCRE2Error.message(for: errorCode))
        }
        self.code = Code(compiled)
        self.pattern = pattern
        self.options = options
        self.isJIT = jit && pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE) == 0
    }

    /// Whether the pattern matches anywhere in `string` (unanchored search, as JSON Schema `pattern`).
    /// - Throws: `PCRE2Error.match` when PCRE2 gives up (resource limits); never for an ordinary no-match.
    public func matches(_ string: String) throws(PCRE2Error) -> Bool {
        try firstMatch(in: string) != nil
    }

    /// The byte range of the first match in `string`'s UTF-8, if any.
    public func firstMatch(in string: String) throws(PCRE2Error) -> Range<Int>? {
        let matcher = PCRE2Matcher(self)
        var copy = string
        // A Swift String is valid UTF-8, so PCRE2's own UTF check is skipped.
        let result = copy.withUTF8 { buf in
            Result { () throws(PCRE2Error) in try matcher.nextMatch(in: buf, from: 0, subjectIsValidUTF8: true) }
        }
        return try result.get()
    }

    /// Every match in `string`'s UTF-8, as byte ranges.
    public func allMatches(in string: String) throws(PCRE2Error) -> [Range<Int>] {
        let matcher = PCRE2Matcher(self)
        var copy = string
        var result: [Range<Int>] = []
        let status = copy.withUTF8 { buf in
            Result { () throws(PCRE2Error) in
                try matcher.forEachMatch(in: buf, subjectIsValidUTF8: true) { result.append($0) }
            }
        }
        try status.get()
        return result
    }
}
