import Testing
@testable import GuidedGrammar

/// Every malformed grammar gives a `GBNFError` with the exact line, column and message.
@Suite struct GBNFErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { text.debugDescription }
        init(_ text: String, _ line: Int, _ column: Int, _ message: String) {
            self.text = text; self.line = line; self.column = column; self.message = message
        }
    }

    static let continuationHint = " (a rule continues on the next line only after '::=' or '|', inside parentheses, "
        + "or on a line that starts with '|')"
    static let negatedTokenRefused = "negated token references ('!<…>': any one token but this) are not supported: they read a token of any text "
        + "as one symbol, bypassing the grammar around it"
    static let elementExpected = "expected an element (a string, a character class, '.', '(' or a rule name), found "

    static let cases: [Case] = [
        Case(#"root ::= "abc"#, 1, 14, #"unterminated string literal starting at line 1, column 10: expected '"'"#),
        Case("root ::= [a-z", 1, 14, "unterminated character class starting at line 1, column 10: expected ']'"),
        Case("root ::= \"a\"\nroot ::= \"b\"", 2, 1, "rule 'root' is already defined at line 1, column 1"),
        Case(#"root = "a""#, 1, 6, "expected '::=' after rule name 'root', found '='"),
        Case("root ::= foo", 1, 10, "undefined rule 'foo'"),
        Case("root ::= a b\na ::= \"x\"\n", 1, 12, "undefined rule 'b'"),
        Case(#"::= "a""#, 1, 1, "expected a rule name, found ':'" + continuationHint),
        Case(#"root ::= ("a""#, 1, 14, "expected ')' to close the '(' at line 1, column 10, found end of input"),
        Case(#"root ::= ("a" "b"]"#, 1, 18, "expected an element (a string, a character class, '.', '(' or a rule name), found ']'"),
        Case(#"root ::= "a")"#, 1, 13, "unexpected ')' without a matching '('"),
        Case(#"root ::= * "a""#, 1, 10, "expected an element before '*'"),
        Case(#"root ::= ("a" | +)"#, 1, 17, "expected an element before '+'"),
        Case(#"root ::= "a"{3,2}"#, 1, 13, "repetition {3,2}: the minimum is greater than the maximum"),
        Case(#"root ::= "a"{x}"#, 1, 14, "expected a number in the repetition, found 'x'"),
        Case(#"root ::= "a"{2"#, 1, 15, "expected '}' to close the repetition, found end of input"),
        Case(#"root ::= "a"{99999999}"#, 1, 14, "repetition count is larger than 1000000"),
        Case(#"root ::= "\q""#, 1, 11, #"unknown escape '\q' (expected one of \n \r \t \\ \" \' \[ \] \- \^ \x \u \U)"#),
        Case(#"root ::= "\x4""#, 1, 14, #"expected 2 hexadecimal digits in the escape, found '"'"#),
        Case(#"root ::= "\uD800""#, 1, 11, "escape denotes a surrogate code point, which UTF-8 cannot encode"),
        Case(#"root ::= "\U00110000""#, 1, 11, "escape denotes a value above U+10FFFF"),
        Case("root ::= [z-a]", 1, 11, "invalid range in character class: the end is before the start"),
        Case("root ::= []", 1, 10, "empty character class '[]' matches nothing"),
        Case(#"root ::= [^\u0000-\U0010FFFF]"#, 1, 10, "character class matches no character"),
        Case(#"root ::= [\"#, 1, 12, #"unterminated character class: end of input after '\'"#),
        Case(#"a ::= "x""#, 1, 10, "expected a rule named 'root' (the start rule)"),
        Case("", 1, 1, "expected a rule named 'root' (the start rule)"),
        Case("# only a comment\n", 2, 1, "expected a rule named 'root' (the start rule)"),
        Case(#"root ::= "a" b ::= "c""#, 1, 16, "unexpected '::=': a rule definition must start on a new line"),
        Case("root ::= x\nx ::= \"a\" |\ny ::= \"b\"", 3, 3, "unexpected '::=': a rule definition must start on a new line"),
        Case("root ::= \"a\nb\"", 1, 12, "unterminated string literal: line break before its end"),
        Case("root ::= @", 1, 10, elementExpected + "'@'"),
        Case(#"root ::= "é" @"#, 1, 14, elementExpected + "'@'"),  // columns count Unicode scalars
        Case(#"root ::= "a" \"#, 1, 14, elementExpected + #"'\'"#),
        Case("root ::= \"a\"\n  \"b\"", 2, 3, "expected a rule name, found '\"'" + continuationHint),
        Case("root ::= " + String(repeating: "(", count: 600), 1, 510, "parentheses nested deeper than 500"),
        Case("root ::= <think x", 1, 10, "expected '>' to end the token reference started here"),
        Case("root ::= <[12a]>", 1, 10, "a token id is written <[N]> with N a non-negative integer"),
        Case("root ::= <[-1]>", 1, 10, "a token id is written <[N]> with N a non-negative integer"),
        Case("root ::= \"a\" !<[1000]>*", 1, 14, negatedTokenRefused),
    ]

    @Test(arguments: cases)
    func malformedGrammar(_ c: Case) {
        #expect(throws: GBNFError.self) { try Grammar(gbnf: c.text) }
        do {
            _ = try Grammar(gbnf: c.text)
        } catch {
            #expect(error.line == c.line)
            #expect(error.column == c.column)
            #expect(error.message == c.message)
            #expect(error.description == "GBNF error at line \(c.line), column \(c.column): \(c.message)")
        }
    }

    /// Random single-character edits of a valid grammar either parse or throw a positioned
    /// `GBNFError` whose position is inside the text: never a crash or a hang.
    @Test func randomEditsNeverCrash() throws {
        let base = """
            root   ::= ws value ws
            value  ::= object | array | "\\"" [^"\\\\]* "\\"" | [0-9]{1,3} ("." [0-9]+)? | ("true" | "false")
            object ::= "{" ws ( member ("," ws member)* )? "}"
            member ::= "\\"" [a-z]+ "\\"" ws ":" ws value  # a comment
            array  ::= "[" ws ( value ("," ws value)* )? "]"
            ws     ::= [ \\t\\n]{0,4}
            """
        _ = try Grammar(gbnf: base)
        let scalars = Array(base.unicodeScalars)
        let alphabet = Array(#"()[]{}|*+?.-^\"'#:=, 0123456789azAZ_\#n\#t\"#.unicodeScalars)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var errors = 0
        for _ in 0..<1500 {
            var s = scalars
            let at = next() % s.count
            switch next() % 3 {
            case 0: s.remove(at: at)
            case 1: s.insert(alphabet[next() % alphabet.count], at: at)
            default: s[at] = alphabet[next() % alphabet.count]
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: s)
            do {
                _ = try Grammar(gbnf: text)
            } catch {
                errors += 1
                #expect(error.offset >= 0 && error.offset <= s.count && error.line >= 1 && error.column >= 1)
            }
        }
        #expect(errors > 100)
    }
}
