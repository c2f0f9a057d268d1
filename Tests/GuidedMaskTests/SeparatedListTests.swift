import Testing
import GuidedGrammar
import GuidedTokenizers
@testable import GuidedMask

/// `x (s x)*` — a JSON array's items, a member-set object's members, `item ("," item)*` in a grammar
/// file — is built with one copy of `x` whose end loops back through `s` (`NFABuilder.buildSeparatedList`).
/// The language must be exactly the written one, and the first item and the later ones must be the same
/// automaton states.
@Suite struct SeparatedListTests {
    static let alphabet = ["a", "b", ",", ";", "x", " "]

    @Test(arguments: [
        #"root ::= item ("," item)*"# + "\n" + #"item ::= "a" | "b" "x"*"#,
        #"root ::= "x"* ("," "x"*)*"#,                                  // an item that may be empty
        #"root ::= ("a" | "b")+ (" "* ";" " "* ("a" | "b")+)*"#,        // loops on both sides of the separator
        #"root ::= "[" (item ("," item)*)? "]" | item"# + "\n" + #"item ::= "a" | "b""#,
        #"root ::= "a" ("," "a")* ";" ("," "a")*"#,                     // the same repeat without an item before it
        #"root ::= list"# + "\n" + #"list ::= item ("," item)*"# + "\n" + #"item ::= "x" | "a" list "b""#,
    ])
    func languageIsTheWrittenOne(_ gbnf: String) throws {
        let grammar = try Grammar(gbnf: gbnf)
        let compiled = try MaskTestSupport.compiled(grammar, MaskTestSupport.vocabulary(Self.alphabet))
        let reference = try ReferenceRecognizer(grammar)
        for text in MaskTestSupport.keySequences(Self.alphabet, upTo: 5).map({ $0.joined() }) {
            #expect(MaskTestSupport.accepts(compiled, text) == reference.accepts(text), "\(gbnf): \(text)")
        }
    }

    @Test func masksMatchTheReference() throws {
        let gbnf = #"root ::= "[" (item ("," " "? item)*)? "]""# + "\n" + #"item ::= "a" "x"* | "b""#
        let grammar = try Grammar(gbnf: gbnf)
        let tokens = ["[", "]", "a", "b", "x", ",", " ", ", ", "ax", "],", "a,", "xx]"]
        let vocab = MaskTestSupport.vocabulary(tokens)
        let compiled = try MaskTestSupport.compiled(grammar, vocab)
        for text in ["[a, b,axx, b]", "[b,b,b]", "[]"] {
            var m = GrammarMatcher(compiled)
            var reference = try ReferenceRecognizer(grammar)
            for byte in Array(text.utf8) {
                let allowed = Set(try MaskTestSupport.allowed(&m))
                for (id, token) in tokens.enumerated() {
                    let feeds = reference.canFeed(Array(token.utf8))
                    #expect(allowed.contains(id) == feeds, "\(text): \(token) after \(reference.count) bytes")
                }
                let fed = reference.feed(byte)
                #expect(fed)
                try m.accept(bytes: [byte])
            }
            #expect(m.canTerminate)
        }
    }

    /// One copy: the list of one item rule has fewer NFA states than the same list whose later items are
    /// another rule with the same body (two copies), and the first item's states are the later items'.
    @Test func oneCopyOfTheItem() throws {
        let item = #""{" ("a" | "b" | "c")* ("x" | "y" | "z") "}""#
        let vocab = MaskTestSupport.vocabulary(["{", "}", "a", "x", ","])
        let one = try MaskTestSupport.compiled(gbnf: "root ::= item (\",\" item)*\nitem ::= \(item)", vocab)
        let two = try MaskTestSupport.compiled(gbnf: "root ::= item (\",\" other)*\nitem ::= \(item)\nother ::= \(item)", vocab)
        #expect(one.nfaStateCount < two.nfaStateCount)
        func top(_ c: CompiledGrammar, _ text: String) throws -> Int32 {
            var m = GrammarMatcher(c)
            try m.accept(bytes: Array(text.utf8))
            let cp = m.current
            #expect(cp.setEnd - cp.setStart == 1)
            return m.engine.nodes[Int(m.sets[Int(cp.setStart)])].state
        }
        #expect(try top(one, "{a") == top(one, "{x},{a"))
        #expect(try top(two, "{a") != top(two, "{x},{a"))
    }

    /// In JSON Schema: an array's first string item and its later ones are read by the same states.
    @Test(arguments: [JSONSchemaCompileOptions.PropertyOrder.memberSets, .declared])
    func arrayItemsShareTheirStates(_ order: JSONSchemaCompileOptions.PropertyOrder) throws {
        let schema = #"{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}}}"#
        let grammar = try JSONSchemaCompiler.compile(text: schema, options: JSONSchemaCompileOptions(propertyOrder: order))
        let c = try MaskTestSupport.compiled(grammar, MaskTestSupport.vocabulary(["{", "}", "[", "]", "\"", ":", ",", " ", "a", "b"]))
        func tops(_ text: String) throws -> [Int32] {
            var m = GrammarMatcher(c)
            try m.accept(bytes: Array(text.utf8))
            let cp = m.current
            return (Int(cp.setStart)..<Int(cp.setEnd)).map { m.engine.nodes[Int(m.sets[$0])].state }
        }
        #expect(try tops(#"{"tags": ["a"#) == tops(#"{"tags": ["b", "a"#))
        #expect(MaskTestSupport.accepts(c, #"{"tags": ["a", "b","ab"]}"#))
        #expect(!MaskTestSupport.accepts(c, #"{"tags": ["a",]}"#))
        #expect(!MaskTestSupport.accepts(c, #"{"tags": [,"a"]}"#))
    }
}
