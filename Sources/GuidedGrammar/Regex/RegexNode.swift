/// The parsed form of a regex: what the pattern says, before any choice of anchoring or encoding.
///
/// Character classes, `.`, `\d`, `\p{L}` and the like are all `.set` (a `CodePointSet`), so the
/// lowering never needs to know which syntax produced a class. Anchors keep their offset in the
/// pattern so that an anchor the lowering cannot express is reported where it was written.
public indirect enum RegexNode: Hashable, Sendable {
    /// Matches the empty string (an empty pattern, an empty alternative, `()`).
    case empty
    /// One scalar.
    case literal(Unicode.Scalar)
    /// One scalar from a set (an empty set matches nothing, like `[]`).
    case set(CodePointSet)
    case sequence([RegexNode])
    case alternation([RegexNode])
    /// `( )`, `(?: )` or `(?<name> )`: grouping only; captures do not change the language.
    case group(RegexNode, capturing: Bool)
    /// `min` to `max` (`nil`: unbounded) repetitions; `lazy` (`*?`) matches the same language.
    case `repeat`(RegexNode, min: Int, max: Int?, lazy: Bool)
    /// `^` at `offset` (in scalars).
    case startAnchor(offset: Int)
    /// `$` at `offset` (in scalars).
    case endAnchor(offset: Int)
    /// `(?=X)`, `(?!X)`, `(?<=X)`, `(?<!X)` at `offset`: made only where the caller asks for them
    /// (`RegexParser.parse(_:dialect:lookaround:)`); no regular expression says it, so the expression
    /// lowering refuses it, and `LookaroundLanguage` builds such patterns from automata.
    case lookaround(RegexNode, ahead: Bool, negative: Bool, offset: Int)
}

/// Which regex language a pattern is written in.
public enum RegexDialect: Hashable, Sendable {
    /// ECMA-262 with Unicode (`u`-flag) semantics, as JSON Schema `pattern` uses: matching is an
    /// unanchored search, `.` excludes line terminators (\n \r U+2028 U+2029), `\d`/`\w` are ASCII,
    /// `\s` is Unicode white space plus line terminators.
    case ecma262
    /// The grammar-regex default (lexemes, `regex` rules): the pattern must match the whole text,
    /// `.` excludes only `\n`; classes and escapes as in `ecma262`.
    case grammar
}

extension CodePointSet {
    /// `\d` (ECMA-262: ASCII digits only).
    public static let regexDigit = CodePointSet(ranges: [0x30...0x39])
    /// `\w` (ECMA-262: `[A-Za-z0-9_]`).
    public static let regexWord = CodePointSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// `\s` (ECMA-262: WhiteSpace and LineTerminator code points).
    public static let regexSpace = CodePointSet(ranges: [
        0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
        0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ])
    /// ECMA-262 line terminators, which `.` does not match.
    public static let ecmaLineTerminators = CodePointSet(ranges: [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029])
}

extension RegexDialect {
    /// What `.` matches in this dialect.
    public var dotSet: CodePointSet {
        switch self {
        case .ecma262: return CodePointSet.all.subtracting(.ecmaLineTerminators)
        case .grammar: return CodePointSet.all.subtracting(CodePointSet(0x0A))
        }
    }
}
