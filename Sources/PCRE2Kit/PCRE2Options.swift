import CPCRE2

/// Compile options passed to `pcre2_compile` (a subset of PCRE2's, named for what callers need).
public struct PCRE2Options: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Pattern and subjects are UTF-8 (code points, not bytes).
    public static let utf = PCRE2Options(rawValue: PCRE2_UTF)
    /// `\d`, `\w`, `\s`, `\b` and POSIX classes use Unicode properties.
    public static let ucp = PCRE2Options(rawValue: PCRE2_UCP)
    public static let caseless = PCRE2Options(rawValue: PCRE2_CASELESS)
    /// `.` also matches newlines.
    public static let dotAll = PCRE2Options(rawValue: PCRE2_DOTALL)
    /// `^` and `$` also match at internal newlines.
    public static let multiline = PCRE2Options(rawValue: PCRE2_MULTILINE)
    /// `$` matches only at the very end (not before a final newline), as in ECMAScript.
    public static let dollarEndOnly = PCRE2Options(rawValue: PCRE2_DOLLAR_ENDONLY)
    /// ECMAScript-like escapes: `\u hhhh`, `\x hh`; `\U` is an error.
    public static let altBSUX = PCRE2Options(rawValue: PCRE2_ALT_BSUX)
    /// Matches must start at the start offset.
    public static let anchored = PCRE2Options(rawValue: PCRE2_ANCHORED)
    /// `\C` (one code unit, breaks UTF) is a compile error.
    public static let neverBackslashC = PCRE2Options(rawValue: PCRE2_NEVER_BACKSLASH_C)

    /// The default: UTF-8 with Unicode properties.
    public static let unicode: PCRE2Options = [.utf, .ucp]
}
