import Testing
import GuidedSchema
@testable import GuidedGrammar

/// A value that can only be a string, with a `oneOf` of three branches or more, or groups whose
/// alternatives multiply to 16 or more, is lowered as one content automaton (`stringDisjunction`): every
/// string of up to 5 characters over {a, b, c, é} (1,365 strings; é for a character of two bytes) is
/// accepted exactly when the validator says it is valid, for each schema below, through whichever path
/// `distributingCostsMore` picks for it.
@Suite struct StringDisjunctionTests {
    static let oneAutomaton: [String] = [
        // Exactly one of three searched words (unanchored): "ab" contains "a" and "b", so two branches.
        #"{"type":"string","oneOf":[{"pattern":"a"},{"pattern":"b"},{"pattern":"ab"}]}"#,
        #"{"type":"string","oneOf":[{"pattern":"^a"},{"pattern":"c$"},{"maxLength":2},{"pattern":"é"}]}"#,
        #"{"type":"string","minLength":1,"oneOf":[{"pattern":"a"},{"pattern":"b"},{"pattern":"c"}],"not":{"const":"abc"}}"#,
        // Groups multiplying to 27: three anyOf of three (nested not/allOf reach such counts).
        #"{"type":"string","allOf":[{"anyOf":[{"pattern":"a"},{"pattern":"b"},{"maxLength":1}]},{"anyOf":[{"pattern":"c"},{"pattern":"^b"},{"minLength":4}]},{"anyOf":[{"pattern":"é"},{"pattern":"a$"},{"pattern":"bb"}]}]}"#,
        #"{"type":"string","oneOf":[{"pattern":"a"},{"pattern":"b"},{"anyOf":[{"pattern":"c"},{"pattern":"é"}]}]}"#,
    ]
    static let distributed: [String] = [
        // A lone anyOf, and a oneOf of two: distributed as before.
        #"{"type":"string","anyOf":[{"pattern":"a"},{"pattern":"b"},{"pattern":"c"}]}"#,
        #"{"type":"string","oneOf":[{"pattern":"a"},{"pattern":"b"}]}"#,
        // Not only strings: distributed.
        #"{"oneOf":[{"pattern":"a"},{"pattern":"b"},{"type":"number"}]}"#,
    ]

    static func strings(upTo n: Int) -> [String] {
        let chars = ["a", "b", "c", "é"]
        var out: [String] = [""]
        var frontier: [String] = [""]
        for _ in 0..<n {
            frontier = frontier.flatMap { s in chars.map { s + $0 } }
            out += frontier
        }
        return out
    }

    func check(_ schema: String) throws {
        let g = try JSONSchemaTestSupport.compile(schema, JSONSchemaCompileOptions(whitespace: .compact))
        let oracle = GrammarMembership.Oracle(g)
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema))
        let all = Self.strings(upTo: 5)
        #expect(all.count == 1_365)
        var valid = 0
        for s in all {
            let text = JSONValue.string(s).serialized(.compact)
            let expected = validator.isValid(.string(s))
            #expect(oracle.accepts(text) == expected, "\(schema): \(text) should be \(expected ? "accepted" : "rejected")")
            if expected { valid += 1 }
        }
        #expect(valid > 0 && valid < all.count, "\(schema): \(valid) valid strings")
        // Other types never pass a schema of strings.
        if schema.hasPrefix(#"{"type":"string""#) { #expect(!oracle.accepts("1") && !oracle.accepts("null")) }
    }

    @Test(arguments: oneAutomaton)
    func oneAutomatonAcceptsExactlyTheValidStrings(_ schema: String) throws {
        try check(schema)
        #expect(SchemaLowering.distributingCostsMore(try flattened(schema)))
    }

    @Test(arguments: distributed)
    func distributedAcceptsExactlyTheValidStrings(_ schema: String) throws {
        try check(schema)
        #expect(!SchemaLowering.distributingCostsMore(try flattened(schema)) || !schema.hasPrefix(#"{"type":"string""#))
    }

    /// Conjunctions that differ only in what does not bear on strings (here a `title`, and `minLength: 0`)
    /// share one `oneOf` language and one expression: the group's product is made once, and the members
    /// accept exactly the same strings.
    @Test func sameLanguageMadeOnce() throws {
        let schema = ##"{"type":"object","$defs":{"s":{"type":"string","oneOf":[{"pattern":"a"},{"pattern":"b"},{"pattern":"ab"}]}},"properties":{"x":{"allOf":[{"$ref":"#/$defs/s"},{"title":"x"}]},"y":{"allOf":[{"$ref":"#/$defs/s"},{"minLength":0}]}}}"##
        var lowering = SchemaLowering(document: try SchemaDocument(root: try JSONParser.parse(schema), defaultDraft: .draft2020_12),
                                      options: JSONSchemaCompileOptions())
        let grammar = try lowering.lowerRoot()
        // Two conjunctions asked (`x`'s and `y`'s), one group language and one expression made.
        #expect(lowering.contents.stringLanguages.count == 2)
        #expect(lowering.contents.groupLanguages.count == 1)
        #expect(lowering.contents.disjunctionExprs.count == 1)
        let oracle = GrammarMembership.Oracle(grammar)
        for (text, valid) in [("a", true), ("ab", false), ("bb", true), ("c", false)] {
            #expect(oracle.accepts(#"{"x":"\#(text)","y":"\#(text)"}"#) == valid, "\(text)")
        }
    }

    /// The root conjunction's flattening, as `lowerConjunction` sees it.
    func flattened(_ schema: String) throws -> Flattened {
        var lowering = SchemaLowering(document: try SchemaDocument(root: try JSONParser.parse(schema), defaultDraft: .draft2020_12),
                                      options: JSONSchemaCompileOptions())
        return try lowering.analyze([Conjunct(node: 0, full: true)]).0
    }
}
