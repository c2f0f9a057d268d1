import Testing
@testable import GuidedGrammar

private func recognizer(_ gbnf: String) throws -> ReferenceRecognizer {
    try ReferenceRecognizer(try Grammar(gbnf: gbnf))
}

private func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }

@Suite struct GBNFParserTests {
    @Test func rulesSequencesAndAlternatives() throws {
        let g = try Grammar(gbnf: """
            root ::= greeting " " name   # a comment
            greeting ::= "hello" | "hi"
            name ::= [a-z]+
            """)
        #expect(g.rules.map(\.name) == ["root", "greeting", "name"])
        #expect(g.start == RuleID(0))
        #expect(g[RuleID(1)].body == .choice([.literal("hello"), .literal("hi")]))
        #expect(g[RuleID(2)].body == .plus(.byteRange(0x61...0x7A)))
        let r = try ReferenceRecognizer(g)
        for ok in ["hello bob", "hi x"] { #expect(r.accepts(ok)) }
        for bad in ["hello", "hey bob", "hi Bob", "hi  bob"] { #expect(!r.accepts(bad)) }
    }

    @Test func exactStructure() throws {
        let g = try Grammar(gbnf: #"root ::= ("a" | "") [xy]? x{2,3} "q"{,2} "w"{1,} . \#nx ::= "x""#)
        let expected: GrammarExpr = .sequence([
            .choice([.literal("a"), .empty]),
            .optional(.byteSet(ByteSet("xy".utf8))),
            .repeat(.rule(RuleID(1)), min: 2, max: 3),
            .repeat(.literal("q"), min: 0, max: 2),
            .repeat(.literal("w"), min: 1, max: nil),
            CodePointSet.all.utf8Expression,
        ])
        #expect(g.rules.count == 2)
        #expect(g.startRule.body == expected)
        #expect(g[RuleID(1)] == GrammarRule(name: "x", body: .literal("x")))
    }

    @Test func undefinedReferenceIsAnError() {
        #expect(throws: GBNFError(offset: 51, line: 1, column: 52, message: "undefined rule 'x'")) {
            try Grammar(gbnf: #"root ::= ("a" | "") [xy]? "z"{2,3} "q"{,2} "w"{1,} x"#)
        }
    }

    @Test func repetitionCounts() throws {
        let r = try recognizer(#"root ::= "a"{2} "b"{1,} "c"{,2} "d"{1,3}"#)
        #expect(r.accepts("aabd") && r.accepts("aabbbccddd"))
        #expect(!r.accepts("abd") && !r.accepts("aaabd") && !r.accepts("aad") && !r.accepts("aabcccd") && !r.accepts("aabdddd"))
    }

    @Test func literalEscapes() throws {
        let r = try recognizer(#"root ::= "\n\r\t\\\"\'\[\]\x41\u00e9\U0001F600""#)
        #expect(r.accepts(utf8("\n\r\t\\\"'[]Aé😀")))
        // \xE9 is the code point U+00E9 (two UTF-8 bytes), as in llama.cpp.
        let x = try recognizer(#"root ::= "\xE9""#)
        #expect(x.accepts([0xC3, 0xA9]) && !x.accepts([0xE9]))
        let raw = try recognizer(#"root ::= "héllo 🎉""#)
        #expect(raw.accepts("héllo 🎉"))
    }

    @Test func characterClasses() throws {
        let r = try recognizer(#"root ::= [a-cx\-\]\u00e9-\u00ea\U0001F600]"#)
        for ok in ["a", "b", "c", "x", "-", "]", "é", "ê", "😀"] { #expect(r.accepts(ok), "\(ok)") }
        for bad in ["d", "\\", "è", "ë", "😁", ""] { #expect(!r.accepts(bad), "\(bad)") }
        // A '-' at the end of a class is literal.
        let dash = try recognizer(#"root ::= [a-]"#)
        #expect(dash.accepts("-") && dash.accepts("a") && !dash.accepts("b"))
    }

    @Test func negatedClassIsValidUTF8() throws {
        let r = try recognizer(#"root ::= [^"\\]"#)
        for ok in ["a", "é", "€", "😀", "\u{7F}", "\u{0}", "\u{10FFFF}", "\u{E000}", "\u{D7FF}"] {
            #expect(r.accepts(ok), "\(ok)")
        }
        for bad: [UInt8] in [[0x22], [0x5C], [0xFF], [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xED, 0xA0, 0x80],
                             [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xC3]] {
            #expect(!r.accepts(bad), "\(bad)")
        }
        var p = r
        let step = p.feed([0xED])
        #expect(step)
        #expect(p.allowedNextBytes == ByteSet(range: 0x80...0x9F))
    }

    @Test func anyCharacter() throws {
        let r = try recognizer("root ::= .")
        #expect(r.allowedNextBytes == ByteSet(range: 0x00...0x7F).union(ByteSet(range: 0xC2...0xF4)))
        for ok in ["\n", "z", "ß", "中", "𝄞"] { #expect(r.accepts(ok)) }
        #expect(!r.accepts([0xF0, 0x8F, 0xBF, 0xBF]) && !r.accepts("ab"))
    }

    /// The code-point-set lowering GBNF classes use accepts exactly the UTF-8 encodings of the members,
    /// checked through the reference recognizer on the class boundaries and a spread of scalars.
    @Test func classLoweringIsExactAtTheEdges() throws {
        let r = try recognizer(#"root ::= [^\x00-\x1F"\\\u00e9\u0800-\uFFFF\U00010001]"#)
        let excluded: (UInt32) -> Bool = { $0 <= 0x1F || $0 == 0x22 || $0 == 0x5C || $0 == 0xE9 || (0x800...0xFFFF).contains($0) || $0 == 0x10001 }
        let samples: [UInt32] = Array(0...0x100) + [0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10001, 0x10002, 0x10FFFF]
            + Array(stride(from: 0x101, through: 0x10FFFF, by: 4099))
        for c in samples where !(0xD800...0xDFFF).contains(c) {
            let bytes = Array(String(Character(Unicode.Scalar(c)!)).utf8)
            #expect(r.accepts(bytes) == !excluded(c), "U+\(String(c, radix: 16))")
        }
        // Malformed UTF-8 never matches: overlong, surrogate, past U+10FFFF, truncated, stray continuation.
        for bad: [UInt8] in [[0xC1, 0x81], [0xE0, 0x9F, 0xBF], [0xED, 0xB0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x90], [0x80]] {
            #expect(!r.accepts(bad))
        }
    }

    /// The UTF-8 sequences of code-point sets (what classes lower to) are exactly the encodings of the
    /// members: the sequences' sizes add up to the member count, and sampled scalars match iff members.
    @Test(arguments: [
        [0x0...0x10FFFF],
        [0x41...0x5A, 0xE9...0xE9, 0x7FF...0x800, 0xFFFF...0x10000, 0xD000...0xE000],
        [0x80...0x80, 0x10FFFF...0x10FFFF, 0x1234...0x5678],
    ] as [[ClosedRange<UInt32>]])
    func utf8SequencesAreExact(ranges: [ClosedRange<UInt32>]) {
        for set in [CodePointSet(ranges: ranges), CodePointSet(ranges: ranges).complement()] {
            let sequences = set.utf8Sequences
            #expect(sequences.reduce(0) { $0 + $1.reduce(1) { $0 * $1.count } } == set.count)
            let samples = Array(UInt32(0)..<0x11000) + Array(stride(from: UInt32(0x11000), to: 0x10FFFF, by: 61)) + [0x10FFFF]
            for c in samples where !(0xD800...0xDFFF).contains(c) {
                let bytes = Array(String(Character(Unicode.Scalar(c)!)).utf8)
                let hit = sequences.contains { seq in seq.count == bytes.count && zip(seq, bytes).allSatisfy { $0.contains($1) } }
                if hit != set.contains(c) {
                    Issue.record("U+\(String(c, radix: 16)) mismatch")
                    break
                }
            }
        }
    }

    @Test func layoutNewlinesCommentsAndContinuations() throws {
        let r = try recognizer("""
            # leading comment

            root ::= item ( # comment inside a group
                "," item
              )*
            item ::=
                "a"
              | "b" # alternatives on following lines
              | ( "c"
                | "d" )

            """)
        for ok in ["a", "a,b", "c,d,a"] { #expect(r.accepts(ok), "\(ok)") }
        for bad in ["", "a,", "e", "a,,b"] { #expect(!r.accepts(bad), "\(bad)") }
        let crlf = try recognizer("root ::= x\r\nx ::= \"y\"\r\n")
        #expect(crlf.accepts("y"))
    }

    @Test func recursionAndRuleOrder() throws {
        // Rules may be used before they are defined; root need not be first.
        let r = try recognizer("""
            list ::= "[" (value ("," value)*)? "]"
            root ::= value
            value ::= list | [0-9]+
            """)
        for ok in ["1", "[]", "[1,[2,[]],33]"] { #expect(r.accepts(ok), "\(ok)") }
        for bad in ["[", "[1,]", "[[]"] { #expect(!r.accepts(bad), "\(bad)") }
    }

    /// Shapes that llama.cpp's own grammars and its JSON-Schema converter emit: an empty first
    /// alternative, `[\\]` and `["]` classes, `{4}` on a class, names with capitals, digits, dashes and
    /// underscores, comments and blank lines inside a parenthesised body.
    @Test func llamaCppStyle() throws {
        let r = try recognizer(#"""
            root ::= (
                # a comment inside the group

                "{" space Item_1-kv ( "," space Item_1-kv ){0,2} "}"
            )
            Item_1-kv ::= ["] char+ ["] space ":" space num
            char ::= [^"\\\x7F\x00-\x1F] | [\\] (["\\bfnrt] | "u" [0-9a-fA-F]{4})
            num ::= [0] | [1-9] [0-9]{0,15}
            space ::= | " " | "\n" [ \t]{0,20}
            """#)
        for ok in [#"{"a":1}"#, "{\"a\\n\\u00e9\": 0,\n  \"b\":12}", #"{"x": 1, "y": 2, "z": 3}"#] { #expect(r.accepts(ok), "\(ok)") }
        for bad in [#"{"a":01}"#, #"{"":1}"#, #"{"a":1,"b":2,"c":3,"d":4}"#, "{\"a\":1}  ", #"{"\x":1}"#] { #expect(!r.accepts(bad), "\(bad)") }
    }
}
