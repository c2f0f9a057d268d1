import Testing
@testable import GuidedGrammar

/// Every malformed or refused XGrammar EBNF grammar gives a `GrammarSyntaxError` with the exact line,
/// column and message, and never traps.
@Suite struct EBNFErrorTests {
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
        Case("root ::= a", 1, 10, "undefined rule 'a'"),
        Case("root ::= \"a\"\nroot ::= \"b\"", 2, 1, "rule 'root' is already defined at line 1, column 1"),
        Case("rule ::= \"a\"", 1, 13, "expected a rule named 'root' (the start rule)"),
        Case("", 1, 1, "expected a rule named 'root' (the start rule)"),
        Case("root ::= \"abc", 1, 14, "unterminated string literal starting at line 1, column 10: expected '\"'"),
        Case("root ::= [a-z", 1, 14, "unterminated character class starting at line 1, column 10: expected ']'"),
        Case("root ::= \"\\q\"", 1, 11, "unknown escape '\\q'"),
        Case("root ::= \"\\u12\"", 1, 15, "expected 4 hexadecimal digits in the escape, found '\"'"),
        Case("root ::= \"\\xD800\"", 1, 11, "escape denotes a surrogate code point, which UTF-8 cannot encode"),
        Case("root ::= \"\\x110000\"", 1, 11, "escape denotes a value above U+10FFFF"),
        Case("root ::= [z-a]", 1, 11, "invalid range in character class: the end is before the start"),
        Case("root ::= []", 1, 10, "empty character class '[]' matches nothing"),
        Case("root ::= [\\d]", 1, 11, "'\\d' is not supported in a character class: write the ranges (e.g. [0-9])"),
        Case("root ::= \"a\"{3,2}", 1, 13, "repetition {3,2}: the minimum is greater than the maximum"),
        Case("root ::= \"a\"{,3}", 1, 14, "the lower bound of a repetition is required: write {0,n}"),
        Case("root ::= \"a\"{x}", 1, 14, "expected a number in the repetition, found 'x'"),
        Case("root ::= \"a\"{2", 1, 15, "expected '}' to close the repetition, found end of input"),
        Case("root ::= \"a\"++", 1, 14, "a second repetition operator on the same element: wrap the element in parentheses"),
        Case("root ::= \"a\"* ?", 1, 15, "a second repetition operator on the same element: wrap the element in parentheses"),
        Case("root ::= (\"a\"", 1, 14, "expected ')' to close the '(' at line 1, column 10, found end of input"),
        Case("root ::= \"a\" )", 1, 14, "unexpected ')' without a matching '('"),
        Case("root ::= \"a\" | ", 1, 16, "expected an element (a string, a character class, '(' or a rule name), found end of input"),
        Case("root ::= | \"a\"", 1, 10, "expected an element (a string, a character class, '(' or a rule name), found '|'"),
        Case("root ::= \"a\" b ::= \"c\"", 1, 14, "a rule definition must start on a new line (rule 'b')"),
        Case("root ::= x\nx[lazy] ::= \"a\"", 2, 3, "rule option 'lazy' (committed-shortest matching) is not supported: it depends on where a match may end, not on the text alone"),
        Case("root[max_tokens=3] ::= \"a\"", 1, 6, "rule option 'max_tokens' is not supported: llguidance ends the lexeme wherever the budget runs out, which is not a language; a structural tag's bounded free text (docs/tool-calls.md) bounds tokens exactly"),
        Case("root[max_chars=3] ::= \"a\"", 1, 6, "rule option 'max_chars' is not supported: a budget that may be relaxed at a rule's end is not a language"),
        Case("root[frob] ::= \"a\"", 1, 6, "unknown rule option 'frob'"),
        Case("root ::= Token()", 1, 10, "Token needs one or more token ids"),
        Case("root ::= Token(1, \"a\")", 1, 19, "Token takes non-negative integer token ids"),
        Case("root ::= Token(1, x=2)", 1, 21, "Token takes no named arguments"),
        Case("root ::= ExcludeToken(1, 2)", 1, 10, "ExcludeToken is not supported: it reads one token of any text as one symbol, which would bypass the grammar around it (Token(…) with the ids is supported)"),
        Case("root ::= TagDispatch((\"<t>\", x))\nx ::= \"a\"", 1, 10, "TagDispatch (free text until a trigger tag, then the tag's rule) is not supported"),
        Case("root ::= Regex(\"a(?=b)\")", 1, 16, "in Regex pattern at offset 1: lookahead `(?=` is not supported (not regular)"),
        Case("root ::= Regex(\"a\", flags=\"q\")", 1, 27, "unknown Regex flag 'q' (expected i, s or u)"),
        Case("root ::= Regex(\"a\", frob=true)", 1, 26, "unknown or mistyped Regex argument 'frob' (expected flags=\"…\" or json_string=true|false)"),
        Case("root ::= Regex(1)", 1, 10, "Regex takes one positional argument, the pattern string"),
        Case("root ::= Substring(\"a\", 2)", 1, 25, "Substring takes strings only"),
        Case("root ::= Regex(\"a\"", 1, 19, "expected ')' to close the macro call at line 1, column 15, found end of input"),
        Case("root ::= x (= \"b\")\nx ::= \"a\"", 1, 12, "lookahead assertion on rule 'root' is not supported: only an assertion that every use of the rule is followed by exactly these elements can be kept (any other restricts the language)"),
        Case("root ::= x \"c\"\nx ::= \"a\" (= \"b\")", 2, 11, "lookahead assertion on rule 'x' is not supported: only an assertion that every use of the rule is followed by exactly these elements can be kept (any other restricts the language)"),
        Case("root ::= <think>", 1, 10, "<think> is not EBNF: XGrammar's EBNF writes a special token by id as Token(…)"),
        Case("root ::= @", 1, 10, "expected an element (a string, a character class, '(' or a rule name), found '@'"),
        Case("root = \"a\"", 1, 6, "expected '::=' after rule name 'root', found '='"),
        Case("root ::= \"a\nb\"", 1, 12, "unterminated string literal: line break before its end"),
        Case("root ::= " + String(repeating: "(", count: 600), 1, 510, "parentheses nested deeper than 500"),
        Case("root ::= \"a\"{99999999}", 1, 14, "repetition count is larger than 1000000"),
        Case(":: = \"a\"", 1, 1, "expected a rule name, found ':'"),
    ]

    @Test(arguments: cases)
    func malformedGrammarIsRefusedWithPosition(_ c: Case) {
        #expect(throws: GrammarSyntaxError.self) { try Grammar(ebnf: c.text) }
        do {
            _ = try Grammar(ebnf: c.text)
        } catch {
            #expect(error.language == .ebnf)
            #expect(error.line == c.line)
            #expect(error.column == c.column)
            #expect(error.message == c.message)
            #expect(error.description == "EBNF error at line \(c.line), column \(c.column): \(c.message)")
        }
    }
}
