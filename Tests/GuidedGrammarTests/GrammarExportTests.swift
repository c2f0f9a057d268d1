import Testing
@testable import GuidedGrammar
import GuidedSchema

/// `Grammar.exported(as:)`: exact texts, the rewrite over characters, refusals, member sets.
@Suite struct GrammarExportTests {
    static let greeting = """
        root ::= greeting (" " name)? "!"
        greeting ::= "hi" | "héllo" | [a-c]{2,3}
        name ::= [^ !"\\\\]+
        """

    @Test func textsInTheThreeLanguages() throws {
        let g = try Grammar(gbnf: Self.greeting)
        #expect(try g.exported(as: .gbnf).text == """
            root ::= greeting (" " name)? "!"
            greeting ::= "hi" | "h\\u00E9llo" | [a-c]{2,3}
            name ::= [^ -"\\u005C]+

            """)
        #expect(try g.exported(as: .ebnf).text == """
            root ::= greeting (" " name)? "!"
            greeting ::= "hi" | "h\\u00E9llo" | [a-c]{2,3}
            name ::= [^ -"\\u005C]+

            """)
        // One character per lexeme, so that llguidance's greedy lexer reads the same language.
        #expect(try g.exported(as: .lark).text == """
            start: greeting (" " name)? "!"
            greeting: "h" "i" | "h" "\\u00E9" "l" "l" "o" | /[a-c]/{2,3}
            name: /[^ -"\\u005C]/+

            """)
    }

    /// A character whose bytes are split between rules (as the schema compiler's automata split them)
    /// becomes one class, in a copy of the rule for the state it is entered in.
    @Test func characterSplitAcrossRules() throws {
        var g = Grammar(startName: "root")
        let tail = g.addRule(name: "tail_x", body: .choice([.bytes([0xA9]), .bytes([0xA8])]))
        g.define(g.start, as: .sequence([.bytes([0x61, 0xC3]), .rule(tail), .byteSet(ByteSet(range: 0x30...0x39))]))
        let e = try g.exported(as: .gbnf)
        #expect(e.text == """
            root ::= "a" tail-x-1-0 [0-9]
            tail-x-1-0 ::= [\\u00E8\\u00E9]

            """)
        #expect(try GrammarDifferential.compare(g, try Grammar(gbnf: e.text), strings: 200).agrees)
    }

    @Test func rewriteOverCharactersKeepsUnicodeClassesExact() throws {
        for pattern in [#"\p{L}+"#, "[^a-z]{2}", "(é|ü|😀)+x", #"[\u{80}-\u{10FFFF}]"#] {
            let g = try Grammar(regex: pattern)
            for format in GrammarTextFormat.allCases {
                let text = try g.exported(as: format).text
                let back: Grammar = switch format {
                case .gbnf: try Grammar(gbnf: text)
                case .ebnf: try Grammar(ebnf: text)
                case .lark: try Grammar(lark: text)
                }
                let report = try GrammarDifferential.compare(g, back, strings: 300, seed: 5)
                #expect(report.agrees, "\(pattern) as \(format)")
            }
        }
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let grammar: Grammar
        let kind: GrammarExportError.Kind
        let description: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "bytes past ASCII alone", grammar: Grammar(root: .byteSet(ByteSet(range: 0x80...0xFF))), kind: .notUTF8Text,
                description: "cannot write the grammar (rule 'root'): some sentence is not valid UTF-8 text: it has a byte that is not "
                    + "valid UTF-8 there (first met in rule 'root', reading a byte of [\\x80-\\xFF]); GBNF, Lark and EBNF describe text"),
        Refusal(name: "truncated character", grammar: Grammar(root: .bytes([0x61, 0xC3])), kind: .notUTF8Text,
                description: "cannot write the grammar (rule 'root'): some sentence is not valid UTF-8 text: it ends inside a "
                    + "character; GBNF, Lark and EBNF describe text"),
        Refusal(name: "overlong form", grammar: Grammar(root: .bytes([0xC0, 0x80])), kind: .notUTF8Text,
                description: "cannot write the grammar (rule 'root'): some sentence is not valid UTF-8 text: it has a byte that is not "
                    + "valid UTF-8 there (first met in rule 'root', reading a byte of [\\xC0]); GBNF, Lark and EBNF describe text"),
        Refusal(name: "surrogate", grammar: Grammar(root: .bytes([0xED, 0xA0, 0x80])), kind: .notUTF8Text,
                description: "cannot write the grammar (rule 'root'): some sentence is not valid UTF-8 text: it has a byte that is not "
                    + "valid UTF-8 there (first met in rule 'root', reading a byte of [\\x80]); GBNF, Lark and EBNF describe text"),
        Refusal(name: "empty language", grammar: Grammar(root: .nothing), kind: .emptyLanguage,
                description: "cannot write the grammar (rule 'root'): the grammar accepts no text at all"),
    ]

    @Test(arguments: refusals)
    func grammarsThatAreNotTextAreRefused(_ r: Refusal) {
        for format in GrammarTextFormat.allCases {
            #expect(throws: GrammarExportError(r.kind, rule: "root", String(r.description.dropFirst("cannot write the grammar (rule 'root'): ".count)))) {
                try r.grammar.exported(as: format)
            }
        }
    }

    /// An invalid byte on a path that can never end is not in the language: the grammar is text.
    @Test func deadInvalidPathsAreNotRefused() throws {
        let g = Grammar(root: .choice([.literal("ok"), .sequence([.bytes([0xFF]), .nothing])]))
        #expect(try g.exported(as: .gbnf).text == "root ::= \"ok\"\n")
    }

    @Test func llamaCppLimits() throws {
        let left = try Grammar(gbnf: "root ::= root \"a\" | \"b\"")
        #expect(try left.exported(as: .gbnf).text == "root ::= root \"a\" | \"b\"\n")
        #expect(throws: GrammarExportError(.leftRecursion, rule: "root", "the rule can call itself before reading any text, which llama.cpp refuses")) {
            try left.exported(as: .gbnf, options: GrammarExportOptions(llamaCpp: true))
        }
        let big = try Grammar(gbnf: "root ::= \"a\"{0,3000}")
        #expect(throws: GrammarExportError(.repetitionTooLarge, rule: "root", "a repetition bound of 3000 is above llama.cpp's limit of 2000")) {
            try big.exported(as: .gbnf, options: GrammarExportOptions(llamaCpp: true))
        }
        #expect(try Grammar(gbnf: "root ::= \"a\"{0,2000} \"b\"*").exported(as: .gbnf, options: GrammarExportOptions(llamaCpp: true)).ruleCount == 1)
    }

    @Test func namesAreMadeValidAndUnique() throws {
        var g = Grammar(startName: "my root")
        let a = g.addRule(name: "object:/properties/a b", body: .literal("a"))
        let b = g.addRule(name: "object:/properties/a_b", body: .literal("b"))
        let c = g.addRule(name: "root", body: .literal("c"))
        g.define(g.start, as: .sequence([.rule(a), .rule(b), .rule(c)]))
        #expect(try g.exported(as: .gbnf).text == """
            root ::= object-properties-a-b object-properties-a-b-2 root-2
            object-properties-a-b ::= "a"
            object-properties-a-b-2 ::= "b"
            root-2 ::= "c"

            """)
        #expect(try g.exported(as: .lark).text == """
            start: object_properties_a_b object_properties_a_b_2 root
            object_properties_a_b: "a"
            object_properties_a_b_2: "b"
            root: "c"

            """)
        #expect(try g.exported(as: .ebnf).text == """
            root ::= object__properties_a_b object__properties_a_b-2 root-2
            object__properties_a_b ::= "a"
            object__properties_a_b-2 ::= "b"
            root-2 ::= "c"

            """)
    }

    // MARK: Member sets

    static let person: JSONValue = [
        "type": "object",
        "properties": ["name": ["type": "string"], "age": ["type": "integer"], "email": ["type": "string"]],
        "required": ["name"],
    ]

    /// Member-set objects are written in declared order: the same language as the declared-order compile,
    /// and the export names them.
    @Test func memberSetsAreWrittenInDeclaredOrder() throws {
        let sets = try JSONSchemaCompiler.compile(Self.person, options: .init(propertyOrder: .memberSets))
        let declared = try JSONSchemaCompiler.compile(Self.person, options: .init(propertyOrder: .declared))
        for format in GrammarTextFormat.allCases {
            let e = try sets.exported(as: format)
            #expect(e.declaredOrderRules == ["object:"])
            let comment = format == .lark ? "//" : "#"
            #expect(e.text.hasPrefix("\(comment) member-set objects written in declared order (the grammar also accepted other orders): object:\n"))
            let back: Grammar = switch format {
            case .gbnf: try Grammar(gbnf: e.text)
            case .ebnf: try Grammar(ebnf: e.text)
            case .lark: try Grammar(lark: e.text)
            }
            let r = try ReferenceRecognizer(back)
            #expect(r.accepts(#"{"name": "a", "age": 3}"#))
            #expect(!r.accepts(#"{"age": 3, "name": "a"}"#))
            #expect(!r.accepts(#"{"age": 3}"#))
            let report = try GrammarDifferential.compare(declared, back, strings: 1000, seed: 11)
            #expect(report.agrees, "\(format): \(report.disagreements.prefix(3).map { String(decoding: $0.text, as: UTF8.self) })")
        }
    }

    /// An object of more than 64 members (bits past the first word, `requiresMembersBeyond`) in declared
    /// order: the same language as the declared-order compile, its required members past the 64th too.
    @Test func wideMemberSetsAreWrittenInDeclaredOrder() throws {
        let names = (0..<70).map { "p\($0)" }
        let schema: JSONValue = [
            "type": "object",
            "properties": .object(JSONObject(names.map { (key: $0, value: ["type": "integer"] as JSONValue) })),
            "required": .array(["p1", "p66", "p69"]),
        ]
        let sets = try JSONSchemaCompiler.compile(schema, options: .init(whitespace: .compact, propertyOrder: .memberSets))
        let declared = try JSONSchemaCompiler.compile(schema, options: .init(whitespace: .compact, propertyOrder: .declared))
        #expect(sets.rules.contains { $0.requiresMembersBeyond == [66, 69] })
        let e = try sets.exported(as: .gbnf)
        #expect(e.declaredOrderRules.count == 1)
        let r = try ReferenceRecognizer(try Grammar(gbnf: e.text))
        #expect(r.accepts(#"{"p1":1,"p66":2,"p69":3}"#))
        #expect(r.accepts(#"{"p1":1,"p2":5,"p66":2,"p67":4,"p69":3}"#))
        #expect(!r.accepts(#"{"p1":1,"p66":2}"#))
        #expect(!r.accepts(#"{"p1":1,"p69":3}"#))
        #expect(!r.accepts(#"{"p66":2,"p1":1,"p69":3}"#))
        let report = try GrammarDifferential.compare(declared, try Grammar(gbnf: e.text), strings: 1000, seed: 11)
        #expect(report.agrees, "\(report.disagreements.prefix(3).map { String(decoding: $0.text, as: UTF8.self) })")
    }

    /// An object of undeclared members only keeps its language in declared order: not named.
    @Test func undeclaredOnlyObjectsAreNotNarrowed() throws {
        let any = try JSONSchemaCompiler.compile(["type": "object"], options: .init(propertyOrder: .memberSets))
        let e = try any.exported(as: .gbnf)
        #expect(e.declaredOrderRules.isEmpty)
        #expect(!e.text.hasPrefix("#"))
        let r = try ReferenceRecognizer(try Grammar(gbnf: e.text))
        #expect(r.accepts(#"{"b": 1, "a": [true, {"c": null}]}"#))
    }
}
