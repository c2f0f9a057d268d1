import CPCRE2

/// Runs one `PCRE2Regex` over subjects, reusing its match data, match context and JIT stack across calls:
/// successive matches over a buffer allocate nothing.
///
/// Not `Sendable`: the scratch space is mutated by each match. Make one matcher per thread or task (they are
/// cheap; the compiled pattern is shared).
public final class PCRE2Matcher {
    public let regex: PCRE2Regex
    private let matchData: OpaquePointer
    private let context: OpaquePointer?
    private let jitStack: OpaquePointer?

    /// Largest JIT stack: deep enough for long runs of whitespace or letters in pre-tokenizer patterns.
    static let maxJITStack = 8 << 20

    public init(_ regex: PCRE2Regex) {
        self.regex = regex
        // Two ovector pairs suffice: only the whole match is reported.
        guard let data = pcre2_match_data_create_8(1, nil) else { fatalError("PCRE2: out of memory") }
        self.matchData = data
        if regex.isJIT, let ctx = pcre2_match_context_create_8(nil),
           let stack = pcre2_jit_stack_create_8(32 << 10, Self.maxJITStack, nil) {
            pcre2_jit_stack_assign_8(ctx, nil, UnsafeMutableRawPointer(stack))
            self.context = ctx
            self.jitStack = stack
        } else {
            self.context = nil
            self.jitStack = nil
        }
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        if let context { pcre2_match_context_free_8(context) }
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
    }

    /// The first match at or after byte `start` of `subject`, as a byte range, or nil.
    ///
    /// - Parameters:
    ///   - subjectIsValidUTF8: pass true when the caller knows the bytes are valid UTF-8 (e.g. they come from
    ///     a Swift `String`); otherwise PCRE2 checks the whole subject on every call (O(n) each time).
    ///   - notEmptyAtStart: refuse an empty match at `start` (used to step past empty matches).
    public func nextMatch(in subject: UnsafeBufferPointer<UInt8>, from start: Int,
                          subjectIsValidUTF8: Bool = false, notEmptyAtStart: Bool = false) throws(PCRE2Error) -> Range<Int>? {
        var opts: UInt32 = 0
        if subjectIsValidUTF8 { opts |= PCRE2_NO_UTF_CHECK }
        if notEmptyAtStart { opts |= PCRE2_NOTEMPTY_ATSTART }
        // PCRE2 needs a non-null pointer even for an empty subject.
        let base = subject.baseAddress ?? UnsafePointer(bitPattern: 1)!
        let rc = pcre2_match_8(regex.code.pointer, base, subject.count, start, opts, matchData, context)
        if rc == PCRE2_ERROR_NOMATCH { return nil }
        if rc < 0 {
            if rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21 {
                throw .invalidUTF8(offset: pcre2_get_startchar_8(matchData))
            }
            throw .match(code: rc, message: PCRE2Error.message(for: rc))
        }
        let ovector = pcre2_get_ovector_pointer_8(matchData)!
        return ovector[0]..<ovector[1]
    }

    /// Calls `body` with every successive non-overlapping match of `subject`, left to right, stepping past
    /// empty matches the way Perl and Python do. The subject's UTF-8 is checked once (not per match) unless
    /// the caller vouches for it.
    public func forEachMatch(in subject: UnsafeBufferPointer<UInt8>, subjectIsValidUTF8: Bool = false,
                             _ body: (Range<Int>) throws(PCRE2Error) -> Void) throws(PCRE2Error) {
        var valid = subjectIsValidUTF8 || !regex.options.contains(.utf)
        var position = 0
        var refuseEmptyAt = -1
        while position <= subject.count {
            guard let m = try nextMatch(in: subject, from: position, subjectIsValidUTF8: valid,
                                        notEmptyAtStart: refuseEmptyAt == position) else {
                if refuseEmptyAt == position && position < subject.count {
                    // No non-empty match here: step one character and search again.
                    position = Self.nextCharacter(subject, after: position, utf: regex.options.contains(.utf))
                    continue
                }
                return
            }
            valid = true // the first call checked the whole subject
            try body(m)
            if m.isEmpty { refuseEmptyAt = m.upperBound }
            position = m.upperBound
        }
    }

    /// The offset of the character after the one starting at `i` (one byte without UTF).
    static func nextCharacter(_ s: UnsafeBufferPointer<UInt8>, after i: Int, utf: Bool) -> Int {
        var j = i + 1
        if utf { while j < s.count && s[j] & 0xC0 == 0x80 { j += 1 } }
        return j
    }
}
