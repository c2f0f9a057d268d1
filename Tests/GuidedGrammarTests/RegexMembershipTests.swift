import Testing
@testable import GuidedGrammar

/// A regex, strings it must accept and strings it must reject, checked through the byte DFA of
/// the lowered `GrammarExpr`.
struct MembershipCase: CustomTestStringConvertible, Sendable {
    var pattern: String
    var dialect: RegexDialect
    var accepted: [String]
    var rejected: [String]
    var testDescription: String { "\(dialect == .ecma262 ? "ecma" : "grammar") /\(pattern)/" }
}

func regexDFA(_ pattern: String, _ dialect: RegexDialect) throws -> ByteDFA {
    try ByteDFA(RegexLowering.compile(pattern, dialect: dialect))
}

@Suite struct RegexMembershipTests {
    static let grammarCases: [MembershipCase] = [
        .init(pattern: "abc", dialect: .grammar, accepted: ["abc"], rejected: ["", "ab", "abcd", "xabc"]),
        .init(pattern: "", dialect: .grammar, accepted: [""], rejected: ["a"]),
        .init(pattern: "a|b|", dialect: .grammar, accepted: ["a", "b", ""], rejected: ["ab"]),
        .init(pattern: "a*b+c?", dialect: .grammar, accepted: ["b", "aabbc", "abbb"], rejected: ["", "a", "acc", "bcc"]),
        .init(pattern: "a*?b+?c??", dialect: .grammar, accepted: ["b", "aabbc"], rejected: ["", "a"]),
        .init(pattern: "(ab){2,3}", dialect: .grammar, accepted: ["abab", "ababab"], rejected: ["ab", "abababab", ""]),
        .init(pattern: "x{3}", dialect: .grammar, accepted: ["xxx"], rejected: ["xx", "xxxx"]),
        .init(pattern: "x{2,}", dialect: .grammar, accepted: ["xx", "xxxxxxx"], rejected: ["x", ""]),
        .init(pattern: "x{0}", dialect: .grammar, accepted: [""], rejected: ["x"]),
        .init(pattern: "[a-c0-2_]+", dialect: .grammar, accepted: ["a0_", "cb21"], rejected: ["d", "3", "", "-"]),
        .init(pattern: "[^a-c]", dialect: .grammar, accepted: ["d", "é", "😀", "\n"], rejected: ["a", "b", "", "dd"]),
        .init(pattern: "[-a]", dialect: .grammar, accepted: ["-", "a"], rejected: ["b"]),
        .init(pattern: "[a-]", dialect: .grammar, accepted: ["-", "a"], rejected: ["b"]),
        .init(pattern: "[\\]\\\\]", dialect: .grammar, accepted: ["]", "\\"], rejected: ["["]),
        .init(pattern: "[\\s\\S]", dialect: .grammar, accepted: ["a", "\n", "😀"], rejected: ["", "ab"]),
        .init(pattern: ".", dialect: .grammar, accepted: ["a", "\r", "é", "€", "😀", "\u{2028}"], rejected: ["\n", "", "ab"]),
        .init(pattern: "\\d+", dialect: .grammar, accepted: ["0", "123"], rejected: ["", "١", "a"]),
        .init(pattern: "\\D", dialect: .grammar, accepted: ["a", "١"], rejected: ["5"]),
        .init(pattern: "\\w+", dialect: .grammar, accepted: ["a_Z9"], rejected: ["é", "-", ""]),
        .init(pattern: "\\W", dialect: .grammar, accepted: ["é", "-", " "], rejected: ["a", "_"]),
        .init(pattern: "\\s", dialect: .grammar, accepted: [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{A0}", "\u{3000}", "\u{FEFF}", "\u{2028}"], rejected: ["a", "\u{200B}"]),
        .init(pattern: "\\S", dialect: .grammar, accepted: ["a", "\u{200B}"], rejected: [" ", "\u{A0}"]),
        .init(pattern: "\\p{Lu}\\p{Ll}*", dialect: .grammar, accepted: ["A", "Éte", "Ωμέγα"], rejected: ["a", "", "A1"]),
        .init(pattern: "\\P{L}", dialect: .grammar, accepted: ["1", " ", "😀"], rejected: ["a", "ж"]),
        .init(pattern: "[\\p{N}x]+", dialect: .grammar, accepted: ["x1", "½", "٣"], rejected: ["y"]),
        .init(pattern: "\\p{Letter}", dialect: .grammar, accepted: ["ж"], rejected: ["1"]),
        .init(pattern: "\\n\\t\\r\\v\\f\\0", dialect: .grammar, accepted: ["\n\t\r\u{0B}\u{0C}\u{0}"], rejected: ["n"]),
        .init(pattern: "\\x41\\u00e9\\u{1F600}\\uD83D\\uDE00", dialect: .grammar, accepted: ["Aé😀😀"], rejected: ["A"]),
        .init(pattern: "\\cJ", dialect: .grammar, accepted: ["\n"], rejected: ["J"]),
        .init(pattern: "[\\b]", dialect: .grammar, accepted: ["\u{08}"], rejected: ["b"]),
        .init(pattern: "\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\/\\-", dialect: .grammar, accepted: [".*+?()[]{}|^$/-"], rejected: []),
        .init(pattern: "a{", dialect: .grammar, accepted: ["a{"], rejected: ["a"]),
        .init(pattern: "a{1,x}", dialect: .grammar, accepted: ["a{1,x}"], rejected: ["a"]),
        .init(pattern: "a}]", dialect: .grammar, accepted: ["a}]"], rejected: []),
        .init(pattern: "^abc$", dialect: .grammar, accepted: ["abc"], rejected: ["xabc", "abcx"]),
        .init(pattern: "^a|b$", dialect: .grammar, accepted: ["a", "b"], rejected: ["ab"]),
        .init(pattern: "(?:ab|cd)(?<name>e)", dialect: .grammar, accepted: ["abe", "cde"], rejected: ["ab"]),
        .init(pattern: "é+", dialect: .grammar, accepted: ["é", "éé"], rejected: ["e"]),
        .init(pattern: "[α-ω]", dialect: .grammar, accepted: ["α", "μ", "ω"], rejected: ["Α", "a"]),
        .init(pattern: "[\\uD800-\\uDFFF]", dialect: .grammar, accepted: [], rejected: ["a", ""]),
        .init(pattern: "[^\\uD800-\\uDFFF]", dialect: .grammar, accepted: ["a", "😀"], rejected: [""]),
    ]

    static let ecmaCases: [MembershipCase] = [
        .init(pattern: "abc", dialect: .ecma262, accepted: ["abc", "xxabcyy", "abcabc"], rejected: ["", "ab", "acb"]),
        .init(pattern: "^abc", dialect: .ecma262, accepted: ["abc", "abcd"], rejected: ["xabc"]),
        .init(pattern: "abc$", dialect: .ecma262, accepted: ["abc", "xabc"], rejected: ["abcx", "abc\n"]),
        .init(pattern: "^abc$", dialect: .ecma262, accepted: ["abc"], rejected: ["abcabc", "xabc", "abcx"]),
        .init(pattern: "^a|b$", dialect: .ecma262, accepted: ["a", "ax", "b", "xb", "ab"], rejected: ["xa", "bx", ""]),
        .init(pattern: "(^a|b)c", dialect: .ecma262, accepted: ["ac", "acx", "bc", "xbc"], rejected: ["xac", "a", "cb"]),
        .init(pattern: "^(a|b)$", dialect: .ecma262, accepted: ["a", "b"], rejected: ["ab", ""]),
        .init(pattern: "^$", dialect: .ecma262, accepted: [""], rejected: ["a"]),
        .init(pattern: "", dialect: .ecma262, accepted: ["", "anything"], rejected: []),
        .init(pattern: "a*", dialect: .ecma262, accepted: ["", "b", "aaa"], rejected: []),
        .init(pattern: "^[a-z]{2,4}$", dialect: .ecma262, accepted: ["ab", "abcd"], rejected: ["a", "abcde", "AB"]),
        .init(pattern: "^\\d{3}-\\d{4}$", dialect: .ecma262, accepted: ["555-1234"], rejected: ["5551234", "555-12345"]),
        .init(pattern: ".", dialect: .ecma262, accepted: ["a", "\na"], rejected: ["", "\n", "\r", "\u{2028}", "\u{2029}", "\r\n"]),
        .init(pattern: "^.$", dialect: .ecma262, accepted: ["😀", "é"], rejected: ["\n", "ab"]),
        .init(pattern: "^\\p{L}+$", dialect: .ecma262, accepted: ["héllo", "Ωμέγα"], rejected: ["a1", ""]),
        .init(pattern: "[^\\x00-\\x7F]", dialect: .ecma262, accepted: ["abcé"], rejected: ["abc"]),
        .init(pattern: "^(\\([0-9]{3}\\))?[0-9]{3}-[0-9]{4}$", dialect: .ecma262, accepted: ["555-1212", "(888)555-1212"], rejected: ["(888)555-1212 ext. 532", "(800)FLOWERS"]),
    ]

    @Test(arguments: grammarCases + ecmaCases)
    func membership(_ c: MembershipCase) throws {
        let dfa = try regexDFA(c.pattern, c.dialect)
        for s in c.accepted { #expect(dfa.matches(s), "should accept \(s.debugDescription)") }
        for s in c.rejected { #expect(!dfa.matches(s), "should reject \(s.debugDescription)") }
    }

    @Test func largeBoundedRepeatStaysCompact() throws {
        let expr = try RegexLowering.compile("a{1000,5000}", dialect: .grammar)
        #expect(expr == .repeat(.bytes([0x61]), min: 1000, max: 5000))
    }

    @Test func searchLanguageIsSigmaStarAroundPattern() throws {
        let sigma = GrammarExpr.repeat(CodePointSet.all.utf8Expression, min: 0, max: nil)
        #expect(try RegexLowering.compile("ab", dialect: .ecma262) == .sequence([sigma, .bytes([0x61, 0x62]), sigma]))
        #expect(try RegexLowering.compile("^ab$", dialect: .ecma262) == .bytes([0x61, 0x62]))
        #expect(try RegexLowering.compile("^ab", dialect: .ecma262) == .sequence([.bytes([0x61, 0x62]), sigma]))
    }

    @Test func customEncoderIsUsedForEveryCharacter() throws {
        // An encoder that spells `"` as `\"` (as inside a JSON string) and refuses control characters.
        let quote = CodePointSet(0x22)
        let controls = CodePointSet(ranges: [0...0x1F])
        let encoder: (CodePointSet) -> GrammarExpr = { set in
            let plain = set.subtracting(quote).subtracting(controls).utf8Expression
            return set.contains(0x22) ? RegexLowering.makeChoice([plain, .bytes([0x5C, 0x22])]) : plain
        }
        let expr = try RegexLowering.compile("^a\"[\"b]$", dialect: .ecma262, encoder: encoder)
        let dfa = try ByteDFA(expr)
        #expect(dfa.matches("a\\\"\\\""))
        #expect(dfa.matches("a\\\"b"))
        #expect(!dfa.matches("a\"b"))
        let unanchored = try ByteDFA(RegexLowering.compile("x", dialect: .ecma262, encoder: encoder))
        #expect(unanchored.matches("\\\"x\\\""))
        #expect(!unanchored.matches("\"x"))
        #expect(!unanchored.matches("\nx"))
    }
}
