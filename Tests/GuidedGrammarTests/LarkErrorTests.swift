import Testing
@testable import GuidedGrammar

/// Every malformed or refused Lark grammar gives a `GrammarSyntaxError` with the exact line, column and
/// message, and never traps.
@Suite struct LarkErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { String(text.prefix(60)).debugDescription }
        init(_ text: String, _ line: Int, _ column: Int, _ message: String) {
            self.text = text; self.line = line; self.column = column; self.message = message
        }
    }

    static let cases: [Case] = [
        Case("start: a", 1, 8, "undefined rule 'a'"),
        Case("start: A", 1, 8, "undefined terminal 'A'"),
        Case("start: \"a\"\nstart: \"b\"", 2, 1, "'start' is already defined at line 1, column 1"),
        Case("rule: \"a\"", 1, 10, "expected a rule named 'start' (the start rule)"),
        Case("start: A\nA: \"x\" A", 2, 8, "terminal 'A' refers to itself: terminals are regular and cannot be recursive"),
        Case("start: A\nA: b\nb: \"x\"", 2, 4, "terminal 'A' refers to rule 'b': terminals can use only strings, regexes and other terminals"),
        Case("start: \"abc", 1, 12, "unterminated string starting at line 1, column 8: expected '\"'"),
        Case("start: /ab", 1, 11, "unterminated regex starting at line 1, column 8: expected '/'"),
        Case("start: \"\\q\"", 1, 9, "unknown escape '\\q' in a string"),
        Case("start: \"a\"{3,2}", 1, 11, "repetition {3,2}: the minimum is greater than the maximum"),
        Case("start ::= \"a\"", 1, 7, "expected ':' after 'start' (Lark defines with ':', not '::=' or '=')"),
        Case("start = \"a\"", 1, 7, "expected ':' after 'start' (Lark defines with ':', not '::=' or '=')"),
        Case("_sep{x, sep}: x (sep x)*\nstart: \"a\"", 1, 1, "templates ('_sep{…}') are not supported"),
        Case("%import foo.BAR\nstart: \"a\"", 1, 9, "only %import common is supported, not 'foo'"),
        Case("%import common.NOPE\nstart: \"a\"", 1, 16, "common.NOPE is not in the common library (it has CNAME, CPP_COMMENT, CR, C_COMMENT, DECIMAL, DIGIT, ESCAPED_STRING, FLOAT, HEXDIGIT, INT, LCASE_LETTER, LETTER, LF, NEWLINE, NUMBER, SH_COMMENT, SIGNED_FLOAT, SIGNED_INT, SIGNED_NUMBER, SQL_COMMENT, UCASE_LETTER, WORD, WS, WS_INLINE, _EXP)"),
        Case("%declare FOO\nstart: \"a\"", 1, 1, "%declare (terminals made by a post-lexer) is not supported"),
        Case("%frobnicate\nstart: \"a\"", 1, 1, "unknown directive '%frobnicate'"),
        Case("start[shiny]: \"a\"", 1, 7, "unknown rule option 'shiny'"),
        Case("start[lazy]: /a+/", 1, 7, "rule option 'lazy' (committed-shortest matching) is not supported: it depends on where a match may end, not on the text alone"),
        Case("start[max_tokens=5]: /a+/", 1, 7, "rule option 'max_tokens' is not supported: llguidance ends the lexeme wherever the budget runs out, which is not a language; a structural tag's bounded free text (docs/tool-calls.md) bounds tokens exactly"),
        Case("start: \"a\" <[^128009]>", 1, 12, "special token <[^128009]>: negated token ranges are not supported: they read one token of any text as one symbol, bypassing the grammar around it"),
        Case("start: <[*]>", 1, 8, "special token <[*]>: the wildcard token range (any one token) is not supported: a token of any text read as one symbol would bypass the grammar around it"),
        Case("start: <[9-3]>", 1, 8, "special token <[9-3]>: the range 9-3 is empty"),
        Case("start: <[1,x]>", 1, 8, "special token <[1,x]>: 'x' is not a token id or an inclusive range 'A-B' of ids"),
        Case("start: <[0-5000]>", 1, 8, "special token <[0-5000]>: more than 4096 token ids"),
        Case("start: A\nA: \"a\" <|im_end|>", 2, 8, "special token <|im_end|> cannot be used inside terminal 'A': a terminal is text, a special token is one token id"),
        Case("start: @other", 1, 8, "references to other grammars ('@other') are not supported: inline the grammar, or use %json for a JSON Schema"),
        Case("start: \"a\" & \"b\"", 1, 8, "'&' joins terminals: use it in an uppercase (terminal) definition"),
        Case("start: A\nA: %json {\"type\":\"string\"}", 2, 4, "%json cannot be used inside terminal 'A' (it is not regular)"),
        Case(#"start: %json {"type": "string", "pattern": "(a)\\1"}"#, 1, 8, #"the %json schema cannot be compiled: unsupported keyword 'pattern' at the root: pattern "(a)\\1": backreference `\1` is not supported (not regular)"#),
        Case("start: %json {\"type\": }", 1, 14, "the JSON after %json is not valid: JSON error at line 1, column 10: expected a value"),
        Case("start: /a b/x", 1, 8, "regex flag 'x' (verbose patterns) is not supported"),
        Case("start: /a/q", 1, 8, "unknown regex flag 'q' (expected i, m, s, u)"),
        Case("start: /a(?=b)/", 1, 10, "in regex: lookahead `(?=` is not supported (not regular)"),
        Case("start: /(a$)*b/", 1, 11, "in regex: an anchor inside a pattern that is part of a larger text is not supported: it would refer to that part, not to the text"),
        Case("start: \"é\"i", 1, 8, "case-insensitive strings fold ASCII letters only; 'é' has other cases"),
        Case("start: " + String(repeating: "(", count: 600), 1, 508, "brackets nested deeper than 500"),
        Case("start: \"a\"{}", 1, 12, "expected a count in the repetition, found '}'"),
        Case("start: (\"a\"", 1, 12, "expected ')' to close the '(' at line 1, column 8, found end of input"),
        Case("start: \"a\"\n  \"b\"", 2, 3, "expected a rule or terminal definition or a directive, found a string (a definition continues on the next line only on a line that starts with '|', or inside brackets)"),
        Case("start: \"a\" \"b\"]", 1, 15, "expected the end of the line, found ']'"),
        Case("%ignore\nstart: \"a\"", 1, 8, "expected what %ignore skips (a terminal, string or regex), found end of line"),
        Case("start: \"ab\"..\"c\"", 1, 8, "a range \"a\"..\"z\" needs one character at each end, without flags"),
        Case("%llguidance {\"no_such\": 1}\nstart: \"a\"", 1, 1, "%llguidance option 'no_such' is not supported (known: allow_initial_skip, ignore_once, no_forcing)"),
        Case("%lark { start: \"a\" }", 1, 1, "%lark (a nested grammar) is not supported"),
        Case("start: \"a\" -", 1, 12, "unexpected '-' (an alias is written '->')"),
        Case("start: \"\\uD800\"", 1, 9, "escape denotes a lone surrogate, which UTF-8 cannot encode"),
        Case("start: $", 1, 8, "unexpected character '$'"),
        Case("", 1, 1, "expected a rule named 'start' (the start rule)"),
        Case("start: \"a\"\n%override x: \"b\"", 2, 1, "%override is not supported (it changes imported grammars, and only %import common is supported)"),
        Case("start: %regex {\"substring_foo\": 1}", 1, 8, "%regex key 'substring_foo' is not supported (known: substring_chunks, substring_words, substring_chars)"),
        Case("start: \"a\"~", 1, 12, "expected an element (a string, a regex, a name, '(' or '['), found end of input"),
        Case("!start: A\nA: \"a\" \"b\" ~ 2..1", 2, 18, "repetition {2,1}: the minimum is greater than the maximum"),

    ]

    @Test(arguments: cases)
    func malformedGrammarIsRefusedWithPosition(_ c: Case) {
        #expect(throws: GrammarSyntaxError.self) { try Grammar(lark: c.text) }
        do {
            _ = try Grammar(lark: c.text)
        } catch {
            #expect(error.language == .lark)
            #expect(error.line == c.line)
            #expect(error.column == c.column)
            #expect(error.message == c.message)
            #expect(error.description == "Lark error at line \(c.line), column \(c.column): \(c.message)")
        }
    }
}
