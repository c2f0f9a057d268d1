import Testing
@testable import GuidedGrammar

/// Each construct of XGrammar's EBNF where it differs from GBNF, with the texts it accepts and rejects.
@Suite struct EBNFGrammarTests {
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
        // Rules span lines freely; a rule begins where `name ::=` begins a line.
        Case("root ::= \"a\" |\n  \"b\"\n  | c\nc ::=\n  \"c\" # comment", accepts: ["a", "b", "c"], rejects: ["ab", ""]),
        Case("root ::= x.y_z-w\nx.y_z-w ::= \"n\"", accepts: ["n"], rejects: [""]),
        Case("root ::= root \"a\" | \"a\"", accepts: ["a", "aaa"], rejects: [""]),
        // Repetition.
        Case(#"root ::= "a"{3}"#, accepts: ["aaa"], rejects: ["aa", "aaaa"]),
        Case(#"root ::= "a"{1,2} "b"{0}"#, accepts: ["a", "aa"], rejects: ["", "aaa", "ab"]),
        Case(#"root ::= "a"{2,}"#, accepts: ["aa", "aaaa"], rejects: ["a"]),
        Case(#"root ::= "a"{1, -1}"#, accepts: ["a", "aaaaa"], rejects: [""]),
        Case(#"root ::= ("a"+)+ ( )"#, accepts: ["a", "aaa"], rejects: [""]),
        Case(#"root ::= "" | "x""#, accepts: ["", "x"], rejects: ["xx"]),
        // Escapes: `\x` takes any number of digits; fixed-length `\u` and `\U`; C escapes.
        Case(#"root ::= "\x41\x1F600\u00e9\U0001F600\a\b\f\v\0\e\/\'\?""#,
             accepts: ["A😀é😀\u{07}\u{08}\u{0C}\u{0B}\u{00}\u{1B}/'?"], rejects: ["A"]),
        // Classes: `[^]` is any character; `\-`, `\]` and the regex escapes.
        Case("root ::= [^]", accepts: ["\n", "😀", "a"], rejects: ["", "ab"]),
        Case(#"root ::= [a\-z\]]"#, accepts: ["a", "-", "z", "]"], rejects: ["b"]),
        Case(#"root ::= [\^\$\.\*]+"#, accepts: ["^$.*"], rejects: ["a"]),
        Case(#"root ::= [^0-9\n]"#, accepts: ["a", "é"], rejects: ["5", "\n"]),
        // Macros.
        Case(#"root ::= "ID-" Regex("[0-9]{5}")"#, accepts: ["ID-12345"], rejects: ["ID-1234", "ID-123456"]),
        Case(#"root ::= Regex("a.b")"#, accepts: ["axb", "a\nb"], rejects: ["ab"]),
        Case(#"root ::= Regex("a.b", flags="i")"#, accepts: ["AxB"], rejects: ["a\nb"]),
        Case(#"root ::= Regex("a.b", flags="is")"#, accepts: ["A\nb"], rejects: ["ab"]),
        Case(#"root ::= Regex("\\d+\\.\\d+")"#, accepts: ["3.14"], rejects: ["3", "٣.١"]),
        Case(#"root ::= "\"" Regex("\\S+", json_string=true) "\"""#, accepts: [#""abc""#], rejects: [#""a"c""#, #""a\c""#]),
        Case(#"root ::= Substring("abc", "de", "fg")"#, accepts: ["", "abc", "de", "abcde", "defg", "abcdefg"], rejects: ["ab", "cde"]),
        // Rule options that do not change the language.
        Case("root ::= item (\",\" item)*\nitem[capture=\"n\", temperature=0.7] ::= [0-9]+", accepts: ["1,22"], rejects: ["1,"]),
        // A lookahead assertion that the grammar implies (as XGrammar prints it) is kept, and changes nothing.
        Case("root ::= x \"b\" \"c\" | \"d\" x \"bz\"\nx ::= \"a\" (= \"b\")", accepts: ["abc", "dabz"], rejects: ["ac", "dab"]),
    ]

    @Test(arguments: cases)
    func constructAcceptsAndRejects(_ c: Case) throws {
        let grammar = try Grammar(ebnf: c.grammar)
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

    @Test func anotherRootRule() throws {
        let r = try ReferenceRecognizer(try Grammar(ebnf: "main ::= \"m\"", root: "main"))
        #expect(r.accepts("m"))
    }

    /// The GBNF files of `Grammars/` are EBNF too (XGrammar reads GBNF; none of them uses `.`, which
    /// EBNF lacks): read either way, the same language.
    @Test(arguments: GrammarFiles.names)
    func gbnfFilesReadAsEBNF(_ name: String) throws {
        let text = try GrammarFiles.text(name)
        let report = try GrammarDifferential.compare(try Grammar(gbnf: text), try Grammar(ebnf: text), strings: 300, seed: 3)
        #expect(report.agrees)
    }
}
