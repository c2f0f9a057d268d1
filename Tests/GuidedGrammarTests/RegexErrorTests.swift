import Testing
@testable import GuidedGrammar

struct ErrorCase: CustomTestStringConvertible, Sendable {
    var pattern: String
    var dialect: RegexDialect = .ecma262
    var offset: Int
    var kind: RegexError.Kind
    var message: String
    var testDescription: String { "/\(pattern)/" }
}

@Suite struct RegexErrorTests {
    static let cases: [ErrorCase] = [
        // Syntax.
        .init(pattern: "(ab", offset: 0, kind: .syntax, message: "missing `)` for the group opened here"),
        .init(pattern: "a(b(c)", offset: 1, kind: .syntax, message: "missing `)` for the group opened here"),
        .init(pattern: "ab)", offset: 2, kind: .syntax, message: "unmatched `)`"),
        .init(pattern: "[ab", offset: 0, kind: .syntax, message: "missing `]` for the class opened here"),
        .init(pattern: "x[^", offset: 1, kind: .syntax, message: "missing `]` for the class opened here"),
        .init(pattern: "*a", offset: 0, kind: .syntax, message: "nothing to repeat before `*`"),
        .init(pattern: "a|+", offset: 2, kind: .syntax, message: "nothing to repeat before `+`"),
        .init(pattern: "(?", offset: 2, kind: .syntax, message: "unexpected end of pattern after `(?`"),
        .init(pattern: "a**", offset: 2, kind: .syntax, message: "nothing to repeat before `*` (a quantifier cannot follow a quantifier)"),
        .init(pattern: "a{2}{3}", offset: 4, kind: .syntax, message: "nothing to repeat before `{` (a quantifier cannot follow a quantifier)"),
        .init(pattern: "a*+", offset: 2, kind: .syntax, message: "nothing to repeat before `+` (a quantifier cannot follow a quantifier)"),
        .init(pattern: "{2}", offset: 0, kind: .syntax, message: "nothing to repeat before `{`"),
        .init(pattern: "^*", offset: 1, kind: .syntax, message: "nothing to repeat before `*` (an anchor cannot be repeated)"),
        .init(pattern: "a{3,2}", offset: 1, kind: .syntax, message: "numbers out of order in `{3,2}` quantifier"),
        .init(pattern: "[z-a]", offset: 1, kind: .syntax, message: "range out of order in character class"),
        .init(pattern: "[\\d-z]", offset: 1, kind: .syntax, message: "a class escape like `\\d` cannot be a range end"),
        .init(pattern: "ab\\", offset: 2, kind: .syntax, message: "`\\` at end of pattern"),
        .init(pattern: "\\xZZ", offset: 0, kind: .syntax, message: "`\\x` needs two hex digits"),
        .init(pattern: "a\\u12", offset: 1, kind: .syntax, message: "`\\u` needs four hex digits or `{...}`"),
        .init(pattern: "\\u{110000}", offset: 0, kind: .syntax, message: "`\\u{...}` value is beyond U+10FFFF"),
        .init(pattern: "\\u{}", offset: 0, kind: .syntax, message: "`\\u{` needs hex digits and a closing `}`"),
        .init(pattern: "\\c1", offset: 0, kind: .syntax, message: "`\\c` must be followed by a letter"),
        .init(pattern: "\\q", offset: 0, kind: .syntax, message: "unknown escape `\\q`"),
        .init(pattern: "é\\A", offset: 1, kind: .syntax, message: "unknown escape `\\A`"),
        .init(pattern: "\\p", offset: 0, kind: .syntax, message: "`\\p` needs a property name in braces, like `\\p{L}`"),
        .init(pattern: "\\p{L", offset: 0, kind: .syntax, message: "unterminated `\\p{`"),
        .init(pattern: "(?<1a>x)", offset: 3, kind: .syntax, message: "invalid character `1` in group name"),
        .init(pattern: "(?<>x)", offset: 3, kind: .syntax, message: "empty group name"),
        .init(pattern: "[\\B]", offset: 1, kind: .syntax, message: "`\\B` is not valid in a character class"),
        // Not regular, or ambiguous between engines: refused.
        .init(pattern: "a(?=b)", offset: 1, kind: .unsupported, message: "lookahead `(?=` is not supported (not regular)"),
        .init(pattern: "(?!b)", offset: 0, kind: .unsupported, message: "negative lookahead `(?!` is not supported (not regular)"),
        .init(pattern: "(?<=b)a", offset: 0, kind: .unsupported, message: "lookbehind `(?<=` is not supported (not regular)"),
        .init(pattern: "(?<!b)a", offset: 0, kind: .unsupported, message: "negative lookbehind `(?<!` is not supported (not regular)"),
        .init(pattern: "(a)\\1", offset: 3, kind: .unsupported, message: "backreference `\\1` is not supported (not regular)"),
        .init(pattern: "(?<n>a)\\k<n>", offset: 7, kind: .unsupported, message: "named backreference `\\k` is not supported (not regular)"),
        .init(pattern: "\\bword\\b", offset: 0, kind: .unsupported, message: "word boundary `\\b` is not supported"),
        .init(pattern: "a\\B", offset: 1, kind: .unsupported, message: "non-word-boundary `\\B` is not supported"),
        .init(pattern: "(?i)abc", offset: 0, kind: .unsupported, message: "group syntax `(?i` (inline flags or modifiers) is not supported"),
        .init(pattern: "\\p{Script=Greek}", offset: 0, kind: .unsupported, message: "unknown or unsupported Unicode property `Script=Greek`"),
        .init(pattern: "\\P{Foo}", offset: 0, kind: .unsupported, message: "unknown or unsupported Unicode property `Foo`"),
        .init(pattern: "[[:alpha:]]", offset: 1, kind: .unsupported, message: "POSIX class syntax `[:` is not supported (ECMA-262 reads it as literal characters); escape the `[`"),
        .init(pattern: "a[]b", offset: 1, kind: .unsupported, message: "`[]` means an empty class in ECMA-262 but starts a class containing `]` in other engines; escape the `]` or write `[^\\s\\S]`/`[\\s\\S]`"),
        .init(pattern: "[^]", dialect: .grammar, offset: 0, kind: .unsupported, message: "`[^]` means an empty class in ECMA-262 but starts a class containing `]` in other engines; escape the `]` or write `[^\\s\\S]`/`[\\s\\S]`"),
        .init(pattern: "a{,3}", offset: 1, kind: .unsupported, message: "`{,n}` is a literal in ECMA-262 but a quantifier in other engines; write `{0,n}` or `\\{`"),
        .init(pattern: "\\01", offset: 0, kind: .unsupported, message: "octal escape `\\01` is not supported"),
        .init(pattern: "[\\1]", offset: 1, kind: .unsupported, message: "escape `\\1` in a class is not supported (backreference or octal)"),
        // An anchor inside a repeat is spelled out copy by copy (AnchoredLanguage), within a bound.
        .init(pattern: "(a$){40}", offset: 2, kind: .limit, message: "a repeat holding an anchor is spelled out copy by copy, at most 32 beyond 32"),
        // Limits.
        .init(pattern: "a{100001}", offset: 1, kind: .limit, message: "repeat count 100001 exceeds the limit of 100000"),
        .init(pattern: "a{1,99999999999999999999}", offset: 1, kind: .limit, message: "repeat count 99999999999999999999 exceeds the limit of 100000"),
        .init(pattern: String(repeating: "(", count: 300), offset: 256, kind: .limit, message: "groups nested deeper than 256"),
    ]

    @Test(arguments: cases)
    func malformed(_ c: ErrorCase) {
        do {
            let expr = try RegexLowering.compile(c.pattern, dialect: c.dialect)
            Issue.record("accepted, lowered to \(expr)")
        } catch {
            #expect(error.offset == c.offset)
            #expect(error.kind == c.kind)
            #expect(error.message == c.message)
        }
    }

    @Test func descriptionNamesOffset() {
        #expect(RegexError(offset: 3, kind: .syntax, "unmatched `)`").description == "regex error at offset 3: unmatched `)`")
    }

    /// Random garbage over regex metacharacters: the parser must return or throw, never trap or hang.
    @Test func randomPatternsNeverCrash() {
        var rng = DifferentialGenerator(seed: 42)
        let alphabet: [String] = ["(", ")", "[", "]", "{", "}", "|", "*", "+", "?", "^", "$", ".", "\\", "-", ",",
                                  "a", "b", "0", "9", "u", "x", "p", "d", "{2}", "{1,3}", "\\u{", "é", "?:", "?<"]
        var accepted = 0
        for _ in 0..<400 {
            var p = ""
            for _ in 0..<Int(rng.next() % 12) { p += alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            for dialect in [RegexDialect.ecma262, .grammar] {
                if let expr = try? RegexLowering.compile(p, dialect: dialect) {
                    accepted += 1
                    _ = try? ByteDFA(expr, limits: AutomatonLimits(maxNFAStates: 10_000, maxDFAStates: 2_000))
                }
            }
        }
        #expect(accepted > 20)
    }
}

