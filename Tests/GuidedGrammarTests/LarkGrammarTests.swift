import Testing
@testable import GuidedGrammar

/// Each construct of the Lark dialect with the texts it accepts and rejects (judged by the reference
/// recognizer on the grammar `Grammar(lark:)` reads).
@Suite struct LarkGrammarTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let grammar: String
        let accepted: [String]
        let rejected: [String]
        var testDescription: String { String(grammar.prefix(60)).debugDescription }
        init(_ grammar: String, accepts accepted: [String], rejects rejected: [String]) {
            self.grammar = grammar; self.accepted = accepted; self.rejected = rejected
        }
    }

    static let cases: [Case] = [
        Case(#"start: "a" "b""#, accepts: ["ab"], rejects: ["a b", "a", "abb", ""]),
        Case("start: \"a\"\n    | \"b\" c\nc: \"c\"", accepts: ["a", "bc"], rejects: ["b", "ac"]),
        Case("// comment\n# another\nstart: x // trailing\nx: \"x\"", accepts: ["x"], rejects: [""]),
        // Tree shaping (`?`, `!`, aliases, priorities) changes nothing accepted.
        Case("?start: a -> first\n    | b\n!a.2: \"a\"\nb: \"b\"", accepts: ["a", "b"], rejects: ["ab"]),
        // Repetition forms.
        Case(#"start: "a"? "b"* "c"+"#, accepts: ["c", "abcc", "bbc"], rejects: ["", "ab", "aac"]),
        Case(#"start: ["x"] "y""#, accepts: ["y", "xy"], rejects: ["xxy"]),
        Case(#"start: "a"{2,3}"#, accepts: ["aa", "aaa"], rejects: ["a", "aaaa"]),
        Case(#"start: "a"{2}"#, accepts: ["aa"], rejects: ["a", "aaa"]),
        Case(#"start: "a"{2,}"#, accepts: ["aa", "aaaaa"], rejects: ["a"]),
        Case(#"start: "a"{,2}"#, accepts: ["", "a", "aa"], rejects: ["aaa"]),
        Case(#"start: "a" ~ 3"#, accepts: ["aaa"], rejects: ["aa", "aaaa"]),
        Case(#"start: ("a" "b") ~ 1..2"#, accepts: ["ab", "abab"], rejects: ["", "ababab"]),
        // Strings: JSON escapes, `\x`, surrogate pairs, the `i` flag (ASCII letters).
        Case(#"start: "\"\\\/\n\t\u00e9\x41\ud83d\ude00""#, accepts: ["\"\\/\n\té\u{41}😀"], rejects: ["\"\\/\n\te\u{41}😀"]),
        Case(#"start: "yes"i"#, accepts: ["yes", "YES", "yEs"], rejects: ["ye", "yess"]),
        Case(#"start: "a".."c""#, accepts: ["a", "b", "c"], rejects: ["d", "ab"]),
        Case(#"start: "α".."γ""#, accepts: ["α", "β", "γ"], rejects: ["δ"]),
        // Regexes: Rust's syntax as far as it is regular; `.` is not `\n`, except with `s`.
        Case("start: /a.b/", accepts: ["axb", "a😀b"], rejects: ["a\nb", "ab"]),
        Case("start: /a.b/s", accepts: ["a\nb"], rejects: ["ab"]),
        Case("start: /ab/i", accepts: ["ab", "AB", "aB"], rejects: ["abc"]),
        Case(#"start: /[0-9]{2,3}/"#, accepts: ["12", "123"], rejects: ["1", "1234"]),
        Case(#"start: /a\/b/"#, accepts: ["a/b"], rejects: ["ab"]),
        // `\d`, `\w`, `\s` are Unicode, as in Rust's regex crate.
        Case(#"start: /\d+/"#, accepts: ["42", "٣"], rejects: ["x", ""]),
        Case(#"start: /\w/"#, accepts: ["é", "_", "٣"], rejects: ["-", " "]),
        Case(#"start: /\s/"#, accepts: [" ", "\u{2003}", "\u{85}"], rejects: ["x"]),
        // Terminals: regular, no `%ignore` inside them.
        Case("start: NUM\nNUM: DIGIT+ (\".\" DIGIT+)?\nDIGIT: /[0-9]/", accepts: ["1", "12.5"], rejects: ["1.", ".5"]),
        // `%ignore` may follow every lexeme (the last too: llguidance admits that only where another
        // lexeme could follow, as after `1` in the next case), not precede the first, never split a terminal.
        Case("%import common.WS\n%ignore WS\nstart: \"a\" NUM \"b\"\nNUM: /[0-9]+/",
             accepts: ["a12b", "a 12 b", "a\n12\tb  "], rejects: [" a12b", "a1 2b"]),
        Case("%ignore \" \"\nstart: digit+\ndigit: /[0-9]/", accepts: ["12", "1 2 ", "1  2"], rejects: [" 1"]),
        Case("%llguidance {\"allow_initial_skip\": true}\n%ignore \" \"\nstart: \"a\" \"b\"", accepts: [" ab", "  a b "], rejects: ["a\tb"]),
        Case("%llguidance {\"ignore_once\": true}\n%ignore /[ ]{1,2}/\nstart: \"a\" \"b\"", accepts: ["ab", "a  b", "a b "], rejects: ["a   b"]),
        // `%import common` names.
        Case("%import common (SIGNED_NUMBER, ESCAPED_STRING, CNAME)\nstart: SIGNED_NUMBER | ESCAPED_STRING | CNAME",
             accepts: ["-1.5e3", "+7", #""a\"b""#, "_x9"], rejects: ["1e", #""a"b""#, "9x"]),
        Case("%import common.INT -> NUMBER\nstart: NUMBER", accepts: ["42"], rejects: ["4.2"]),
        Case("%import common.C_COMMENT\nstart: C_COMMENT", accepts: ["/* a */", "/**/", "/* * / */"], rejects: ["/* */ */", "/*"]),
        // `%json`: a JSON Schema as an element.
        Case("start: \"x=\" %json {\"type\": \"integer\", \"minimum\": 1}", accepts: ["x=12", "x=1"], rejects: ["x=0", "x=1.5", "x="]),
        // `%regex` substrings.
        Case(#"start: %regex {"substring_chunks": ["abc", "de", "fg"]}"#,
             accepts: ["", "abc", "de", "abcde", "defg", "abcdefg"], rejects: ["ab", "cde", "abcfg"]),
        Case(#"start: %regex {"substring_words": "foo bar. baz"}"#, accepts: ["foo", "bar. baz", "foo bar"], rejects: ["fo", "ar"]),
        Case(#"start: %regex {"substring_chars": "héllo"}"#, accepts: ["é", "éll", "héllo"], rejects: ["hl"]),
        // `&` and `~` in terminals.
        Case("start: A\nA: /[a-z]+/ & ~/[a-z]*bad[a-z]*/", accepts: ["good", "ba"], rejects: ["bad", "xbadx", ""]),
    ]

    @Test(arguments: cases)
    func constructAcceptsAndRejects(_ c: Case) throws {
        let grammar = try Grammar(lark: c.grammar)
        let r = try ReferenceRecognizer(grammar)
        for text in c.accepted {
            let accepted = r.accepts(text)
            #expect(accepted, "should accept \(text.debugDescription)")
        }
        for text in c.rejected {
            let accepted = r.accepts(text)
            #expect(!accepted, "should reject \(text.debugDescription)")
        }
    }

    /// llguidance lexes greedily: `A` takes every `a`, so it accepts nothing here. This reader takes the
    /// grammar as context-free, where `A` may stop before the last `a`: `aa` is a sentence. (Documented
    /// in docs/grammars.md; every text llguidance accepts is accepted here.)
    @Test func contextFreeNotGreedyLexing() throws {
        let r = try ReferenceRecognizer(try Grammar(lark: "start: A \"a\"\nA: /a+/"))
        #expect(r.accepts("aa"))
        #expect(r.accepts("aaa"))
        #expect(!r.accepts("a"))
        // Where the lexemes end at a delimiter, greedy and context-free agree.
        let json = try ReferenceRecognizer(try Grammar(lark: "start: WORD \",\" WORD\nWORD: /[a-z]+/"))
        #expect(json.accepts("ab,cd"))
        #expect(!json.accepts("ab,"))
    }

    @Test func jsonOptionsApply() throws {
        let text = "start: %json {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}, \"b\": {\"type\": \"integer\"}}}"
        let declared = try ReferenceRecognizer(try Grammar(lark: text))
        #expect(declared.accepts(#"{"a": 1, "b": 2}"#))
        #expect(!declared.accepts(#"{"b": 2, "a": 1}"#))
        let anyOrder = try ReferenceRecognizer(try Grammar(lark: text, options: LarkOptions(json: .init(propertyOrder: .anyOrder(maxMembers: 8)))))
        #expect(anyOrder.accepts(#"{"b": 2, "a": 1}"#))
    }

    @Test func startRuleIsStartAndTerminalsAreRules() throws {
        let g = try Grammar(lark: "start: A\nA: \"a\"")
        #expect(g.startRule.name == "start")
        #expect(g.rules.map(\.name).contains("A"))
    }
}
