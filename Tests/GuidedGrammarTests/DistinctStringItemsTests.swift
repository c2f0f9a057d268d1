import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `uniqueItems: true` over string items (`distinctStringArray`, enforced by the matcher:
/// `DistinctItems`): every text below is accepted exactly when the validator says it is valid.
@Suite struct DistinctStringItemsTests {
    /// Item spellings: plain, empty, one a prefix of another, and the escapes that a repeated item might
    /// hide behind (`\"`, `\\`, a backslash before the closing quote).
    static let items = [#""a""#, #""""#, #""ab""#, #""\"""#, #""a\\""#]


    static let schemas: [String] = [
        #"{"type":"array","items":{"type":"string"},"uniqueItems":true}"#,
        #"{"type":"array","items":{"type":"string"},"uniqueItems":true,"minItems":2,"maxItems":3}"#,
        #"{"type":"array","items":{"type":"string","minLength":1},"uniqueItems":true}"#,
        #"{"type":"array","items":{"type":"string","pattern":"^a"},"uniqueItems":true}"#,
        // Another branch takes repeated items (at most two): its parses go on where the distinct ones stop.
        #"{"anyOf":[{"type":"array","items":{"type":"string"},"uniqueItems":true},{"type":"array","items":{"type":"string"},"maxItems":2}]}"#,
        // A list of listed values keeps its own rules beside.
        #"{"anyOf":[{"type":"array","items":{"type":"string"},"uniqueItems":true},{"type":"array","items":{"enum":["a","ab"]},"uniqueItems":true}]}"#,
        // Finite languages, listed for the matcher: more than six values, a bounded pattern, a minimum
        // that uses every value, and beside a branch that takes repeats.
        #"{"type":"array","items":{"enum":["a","","ab","\"","a\\","zz","zzz"]},"uniqueItems":true}"#,
        #"{"type":"array","items":{"enum":["a","","ab","\"","a\\","zz","zzz"]},"uniqueItems":true,"minItems":3}"#,
        #"{"type":"array","items":{"type":"string","pattern":"^(a|ab|)$"},"uniqueItems":true,"minItems":2}"#,
        #"{"type":"array","items":{"type":"string","pattern":"^(a|ab|\"|a\\\\)$"},"uniqueItems":true,"minItems":4}"#,
        #"{"anyOf":[{"type":"array","items":{"type":"string","pattern":"^(a|ab)$"},"uniqueItems":true},{"type":"array","items":{"type":"string"},"maxItems":2}]}"#,
        // Languages too large to list, counted on their automata.
        #"{"type":"array","items":{"type":"string","maxLength":2},"uniqueItems":true,"minItems":1}"#,
        #"{"type":"array","items":{"type":"string","maxLength":1},"uniqueItems":true,"maxItems":3}"#,
    ]

    @Test(arguments: schemas)
    func acceptsExactlyTheDistinctArrays(_ schema: String) throws {
        let minimumUsesAll = schema.contains(#""minItems":4"#)
        let g = try JSONSchemaTestSupport.compile(schema, JSONSchemaCompileOptions(whitespace: .compact))
        let oracle = GrammarMembership.Oracle(g)
        #expect(oracle.kind == "matcher")
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema))
        let all = JSONSchemaTestSupport.arrays(of: Self.items, upTo: 4)
        #expect(all.count == 781)
        var valid = 0, invalid = 0
        for text in all {
            let expected = validator.isValid(try JSONParser.parse(text))
            #expect(oracle.accepts(text) == expected, "\(schema): \(text) should be \(expected ? "accepted" : "rejected")")
            if expected { valid += 1 } else { invalid += 1 }
        }
        // Both kinds are there: a schema that accepted everything or nothing would test nothing.
        #expect(valid >= (minimumUsesAll ? 24 : 3) && invalid > 20, "\(valid) valid, \(invalid) invalid")
    }

    /// Arrays of distinct strings never nest, but they may sit in other arrays and objects: each array
    /// has its own items, and other arrays' strings are not items of it.
    static let nested: [(schema: String, texts: [String])] = [
        (#"{"type":"array","items":{"type":"array","items":{"type":"string"},"uniqueItems":true}}"#,
         [#"[["a"],["a"]]"#, #"[["a","a"]]"#, #"[["a","b"],["b","a"],[]]"#, #"[[],["a","b","a"]]"#, #"[["a"],["b","b"]]"#]),
        (#"{"type":"object","properties":{"t":{"type":"array","items":{"type":"string"},"uniqueItems":true},"u":{"type":"array","items":{"type":"string"}}}}"#,
         [#"{"u":["a","a"],"t":["a"]}"#, #"{"t":["a"],"u":["a","a"]}"#, #"{"t":["a","a"]}"#, #"{"t":["x","a"],"u":["x"]}"#,
          #"{"t":["[","]","\""]}"#, #"{"t":["[","["]}"#]),
        (#"{"type":"array","items":{"anyOf":[{"type":"array","items":{"type":"string"},"uniqueItems":true},{"type":"string"}]}}"#,
         [#"["a","a",["a"]]"#, #"["a",["a","a"]]"#, #"[["a","b"],"a",["b","a"]]"#, #"[["a"],["a","b","b"]]"#]),
    ]

    @Test(arguments: 0..<3)
    func nestedArraysKeepTheirOwnItems(_ k: Int) throws {
        let (schema, texts) = Self.nested[k]
        let g = try JSONSchemaTestSupport.compile(schema, JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets))
        let oracle = GrammarMembership.Oracle(g)
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema))
        for text in texts {
            let expected = validator.isValid(try JSONParser.parse(text))
            #expect(oracle.accepts(text) == expected, "\(schema): \(text) should be \(expected ? "accepted" : "rejected")")
        }
    }

    /// The array is a rule marked for the matcher; the grammar languages cannot say it, and the
    /// reference recognizer refuses it rather than accept repeated items.
    /// The items' strings are one automaton for the items' grammar (`stringDisjunction`) and for telling
    /// them apart (`distinctStringArray`): made once (tsconfig's `lib`, an `anyOf` of 109 names and 17
    /// patterns, took a quarter of its compile to make twice).
    @Test func theItemsLanguageIsMadeOnce() throws {
        let schema = #"{"type":"array","uniqueItems":true,"items":{"type":"string","anyOf":[{"enum":["es5","es6"]},{"pattern":"^dom(\\.iterable)?$"},{"pattern":"^esnext"}]}}"#
        var lowering = SchemaLowering(document: try SchemaDocument(root: try JSONParser.parse(schema), defaultDraft: .draft2020_12),
                                      options: JSONSchemaCompileOptions())
        _ = try lowering.lowerRoot()
        #expect(lowering.contents.stringLanguages.count == 1)
        let language = try #require(lowering.contents.stringLanguages.values.first ?? nil)
        for word in ["es5", "dom", "dom.iterable", "esnext", "esnext.array"] { #expect(language.matches(word), "\(word)") }
        for word in ["es7", "dom.", "xesnext", ""] { #expect(!language.matches(word), "\(word)") }
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: schema, accept: [#"["es5","dom"]"#, #"["esnext.a","esnext.b"]"#, "[]"],
            reject: [#"["es5","es5"]"#, #"["dom","dom"]"#, #"["es7"]"#]))
    }

    @Test func markedForTheMatcherAndRefusedElsewhere() throws {
        let g = try JSONSchemaTestSupport.compile(#"{"properties":{"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true}}}"#)
        #expect(g.rules.filter(\.distinctStringItems).map(\.name) == ["distinct:/properties/tags"])
        #expect(throws: ReferenceRecognizerError.distinctStringItems(rule: "distinct:/properties/tags")) { try g.accepts(text: "{}") }
        #expect(throws: GrammarExportError(.distinctItems, rule: "distinct:/properties/tags", "an array whose string items must be distinct "
                                           + "(uniqueItems) has no form in GBNF, Lark or EBNF (the matcher checks it)")) {
            try g.exported(as: .gbnf)
        }
    }

    /// Which languages keep every refusal live (`ByteDFA.continuesInfinitelyFromEveryPrefix`).
    @Test func infiniteCompletions() throws {
        func infinite(_ pattern: String) throws -> Bool {
            try ByteDFA(RegexLowering.compile(pattern, dialect: .grammar)).continuesInfinitelyFromEveryPrefix
        }
        #expect(try infinite("a*"))
        #expect(try infinite("(ab)+c*"))
        #expect(try infinite("[a-z]+(x|y)*"))
        #expect(try !infinite("a"))          // one word
        #expect(try !infinite("a*b"))        // after the b, nothing more
        #expect(try !infinite("a{0,3}"))
        #expect(try !infinite("a*|b"))       // the b has no continuation
        #expect(!ByteDFA.emptyLanguage.continuesInfinitelyFromEveryPrefix)
    }
}
