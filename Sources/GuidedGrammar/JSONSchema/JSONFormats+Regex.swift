/// `format: "regex"`: ECMA-262 patterns (22.2.1, "Patterns"), as a regular subset of string contents.
///
/// A valid pattern is not a regular language: groups nest without bound, `{n,m}` needs n ≤ m and a class
/// range `[x-y]` needs x ≤ y, comparisons a finite automaton can make only over bounded operands. So this
/// language keeps the patterns whose every construct it can check, and leaves out the rest (each a valid
/// pattern written another way is still in it):
/// - groups `( … )` and `(?: … )` nested at most `maxRegexGroupDepth` deep; no lookaround, no named
///   groups, no backreferences (whose validity depends on the groups counted elsewhere in the pattern);
/// - quantifiers `* + ? {n} {n,} {n,m}` (each optionally lazy) on atoms and groups only; counts of at most
///   four digits without leading zeros; `{n,m}` where m has more digits than n, or both have one digit and
///   n ≤ m, or both have two and n's first digit is below m's;
/// - class ranges from the first digit or letter of a run (`0-`, `a-`, `A-`) or to its last (`-9`, `-z`,
///   `-Z`), within the run; a literal `-` in a class is written `\-`, and a `[` inside one `\[`; no class
///   begins with `:`, `.` or `=` (PCRE2 reads `[:`, `[.`, `[=` as POSIX syntax, an error outside a class);
/// - escapes: `\d \D \w \W \s \S`, `\f \n \r \t \v`, `\cX` (X a letter), `\xHH`, `\uHHHH` (no surrogate),
///   and a syntax character or `/` after `\` (`\-` only in a class); `\b` and `\B` as assertions outside
///   classes; no `\0`, no `\p{…}`, no identity escapes of other characters (an error under the `u` flag);
/// - literal characters: every code point except the syntax characters `^ $ \ . * + ? ( ) [ ] { } |`
///   and control characters.
/// Each kept pattern is valid with and without the `u` flag, and PCRE2 (the validator's engine, after its
/// ECMA-262 rewrites) compiles it. docs/json-schema.md states the subset.
extension JSONFormats {
    /// Group nesting the language keeps: each level is another copy of the pattern automaton.
    static let maxRegexGroupDepth = 3

    static let regexPattern: GrammarExpr = {
        let escape = lit("\\\\") // one `\` of the pattern, as JSON string contents
        func escaped(_ set: String) -> GrammarExpr { .seq([escape, cls(set)]) }
        let syntax = "^$\\.*+?()[]{}|"
        // Code points of a literal character: not a syntax character, not a control character.
        var excluded: [UInt32] = Array(0..<0x20)
        for u in syntax.unicodeScalars { excluded.append(u.value) }
        let literal = JSONText.chars(JSONText.complement(excluded.sorted()))

        let hexDigit = hex
        let notSurrogate = GrammarExpr.alt([
            .seq([cls("0123456789ABCabc"), hexDigit, hexDigit, hexDigit]),
            .seq([cls("Dd"), cls("01234567"), hexDigit, hexDigit]),
            .seq([cls("EFef"), hexDigit, hexDigit, hexDigit]),
        ])
        // After a pattern's `\`, a syntax character or `/` stands for itself; the backslash is itself
        // written `\\` inside the JSON string, so an escaped backslash is two of those.
        let syntaxEscaped = GrammarExpr.alt([
            .seq([escape, cls("^$.*+?()[]{}|/")]),
            .seq([escape, escape]),
        ])
        let commonEscape = GrammarExpr.alt([
            escaped("dDwWsSfnrtv"),
            .seq([escape, lit("c"), .byteSet(alphaSet)]),
            .seq([escape, lit("x"), hexDigit, hexDigit]),
            .seq([escape, lit("u"), notSurrogate]),
            syntaxEscaped,
        ])

        // Character classes.
        // Ranges that start a digit or letter run (`0-`, `a-`, `A-`) or end one (`-9`, `-z`, `-Z`): in order
        // whatever the other end is, so the automaton need not remember the first end (an ordered pair of
        // any two would take a state per first end, at every group depth).
        var ranges: [GrammarExpr] = []
        for (lo, hi) in [(UInt8(0x30), UInt8(0x39)), (0x61, 0x7A), (0x41, 0x5A)] {
            ranges.append(.seq([.bytes([lo, UInt8(ascii: "-")]), .byteRange(lo...hi)]))
            ranges.append(.seq([.byteRange(lo...hi), .bytes([UInt8(ascii: "-"), hi])]))
        }
        var classExcluded: [UInt32] = Array(0..<0x20)
        for u in "\\]-[".unicodeScalars { classExcluded.append(u.value) }
        let classLiteral = JSONText.chars(JSONText.complement(classExcluded.sorted()))
        let classItem = GrammarExpr.alt([classLiteral, commonEscape, escaped("-"), .alt(ranges)])
        // PCRE2 reads `[:`, `[.` and `[=` as the start of a POSIX class or collating element (an error
        // outside a class), so a class does not begin with those three.
        let firstExcluded = classExcluded + ":.=".unicodeScalars.map(\.value)
        let firstItem = GrammarExpr.alt([JSONText.chars(JSONText.complement(firstExcluded.sorted())), commonEscape, escaped("-"), .alt(ranges)])
        let classBody = GrammarExpr.alt([.seq([lit("^"), .star(classItem)]), .seq([firstItem, .star(classItem)]), .empty])
        let characterClass = GrammarExpr.seq([lit("["), classBody, lit("]")])

        // Quantifiers.
        let nonZero = GrammarExpr.byteRange(0x31...0x39)
        func number(digits: ClosedRange<Int>) -> GrammarExpr {
            var alts: [GrammarExpr] = []
            if digits.lowerBound == 1 { alts.append(lit("0")) }
            alts.append(.seq([nonZero, .repeat(digit, min: digits.lowerBound - 1, max: digits.upperBound - 1)]))
            return .alt(alts)
        }
        var ordered: [GrammarExpr] = []
        // m longer than n (neither with a leading zero).
        for k in 1...3 { ordered.append(.seq([number(digits: 1...k), lit(","), number(digits: (k + 1)...(k + 1))])) }
        // One digit each, n ≤ m; two digits each, n's first digit below m's.
        for a in 0...9 { ordered.append(.seq([lit("\(a),"), .byteRange(UInt8(0x30 + a)...0x39)])) }
        for a in 1...8 { ordered.append(.seq([lit("\(a)"), digit, lit(","), .byteRange(UInt8(0x31 + a)...0x39), digit])) }
        let count = number(digits: 1...4)
        let braces = GrammarExpr.seq([lit("{"), .alt([count, .seq([count, lit(",")]), .alt(ordered)]), lit("}")])
        let quantifier = GrammarExpr.seq([.alt([cls("*+?"), braces]), .optional(lit("?"))])

        let assertion = GrammarExpr.alt([cls("^$"), escaped("bB")])
        let atom = GrammarExpr.alt([literal, lit("."), commonEscape, characterClass])
        // Depth 0 has no groups; depth d adds groups around a disjunction of depth d - 1.
        var disjunction = GrammarExpr.empty
        for depth in 0...maxRegexGroupDepth {
            var quantifiable = atom
            if depth > 0 {
                let group = GrammarExpr.seq([lit("("), .optional(lit("?:")), disjunction, lit(")")])
                quantifiable = .alt([atom, group])
            }
            let term = GrammarExpr.alt([assertion, .seq([quantifiable, .optional(quantifier)])])
            // Alternative ('|' Alternative)*, where an alternative may be empty, is any run of terms and
            // bars: written so, each level holds one copy of the level below, not two.
            disjunction = .star(.alt([term, lit("|")]))
        }
        return disjunction
    }()
}
