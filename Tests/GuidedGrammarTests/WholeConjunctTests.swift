import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Conjuncts that accept every instance of the rest of their conjunction are dropped before it is
/// lowered (`SchemaLowering+WholeTypes`), and conjunctions no instance satisfies are not lowered at all:
/// the same language, fewer rules.
@Suite struct WholeConjunctTests {
    /// `a` and `b` are declared strings and match a pattern whose schema is "a string, an integer or an
    /// array of integers" (a `oneOf` told apart by type): for strings the pattern's schema says nothing.
    static let declaredAndMatched = ##"""
    {"type":"object",
     "properties":{"a":{"type":"string","maxLength":3},"b":{"type":"string","minLength":1}},
     "patternProperties":{"^[ab]$":{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"array","items":{"type":"integer"}}]}},
     "additionalProperties":false}
    """##

    @Test func aConjunctThatAcceptsEveryStringIsDropped() throws {
        let g = try JSONSchemaTestSupport.compile(Self.declaredAndMatched)
        // Each member's value is its declaration alone: one rule, and the pattern's `oneOf` is never
        // distributed (it had a rule per branch combination, each named after the declaration too).
        #expect(g.rules.filter { $0.name == "schema:/properties/a" }.count == 1)
        #expect(g.rules.filter { $0.name == "schema:/properties/b" }.count == 1)
        #expect(!g.rules.contains { $0.name.hasPrefix("schema:/patternProperties") })
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: Self.declaredAndMatched,
            accept: ["{}", #"{"a":""}"#, #"{"a":"xyz"}"#, #"{"b":"x"}"#, #"{"a":"x","b":"long text"}"#],
            reject: [#"{"a":"wxyz"}"#, #"{"b":""}"#, #"{"a":1}"#, #"{"b":[1]}"#, #"{"c":"x"}"#, #"{"a":null}"#]))
    }

    @Test func wholeTypesFollowAnyOfAndOneOf() throws {
        let schema = ##"""
        {"$defs":{
           "byType":{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"array","items":{"type":"integer"}}]},
           "overlapping":{"oneOf":[{"type":"string"},{"type":"string","maxLength":2},{"type":"boolean"}]},
           "either":{"anyOf":[{"type":"string","pattern":"^a"},{"type":"null"},{}]},
           "closed":{"type":"string","enum":["x"]}}}
        """##
        var lowering = SchemaLowering(document: try SchemaDocument(root: try JSONParser.parse(schema), defaultDraft: .draft2020_12),
                                      options: JSONSchemaCompileOptions())
        func whole(_ name: String) throws -> InstanceTypes {
            let node = try lowering.document.node(at: "/$defs/" + name)
            return lowering.wholeTypes([Conjunct(node: node, full: true)], depth: 0)
        }
        // Exactly one branch accepts every string and every integer; arrays only some.
        #expect(try whole("byType") == [.string, .integer])
        // Two branches accept short strings: no string is sure to pass exactly one of them.
        #expect(try whole("overlapping") == [.boolean])
        // `{}` accepts everything but objects, which are never counted as accepted wholly.
        #expect(try whole("either") == InstanceTypes.all.subtracting(.object))
        #expect(try whole("closed") == [])
    }

    /// A `type: number` declaration beside listed numbers told apart by an `anyOf`: the declaration says
    /// nothing of them and is dropped, and their spellings are theirs (`0`, `0.0`). A `type: integer`
    /// declaration accepts every integer too, but it is what keeps the integer spellings the only ones, so
    /// it stays.
    @Test func numberSpellingsAreKept() throws {
        func schema(_ type: String) -> String {
            #"{"properties":{"n":{"type":"\#(type)"}},"patternProperties":{"^n$":{"enum":[0,1],"anyOf":[{"const":0},{"minimum":1}]}}}"#
        }
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: schema("number"), accept: [#"{"n":0}"#, #"{"n":0.0}"#, #"{"n":1.00}"#, #"{"n":-0}"#],
            reject: [#"{"n":2}"#, #"{"n":"0"}"#, #"{"n":null}"#]))
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: schema("integer"), accept: [#"{"n":0}"#, #"{"n":1}"#, #"{"n":-0}"#],
            reject: [#"{"n":0.0}"#, #"{"n":1.0}"#, #"{"n":2}"#, #"{"n":"0"}"#]))
    }

    /// A member one part declares and another part closes with `additionalProperties: false` can only be
    /// absent: its conjunction holds the schema `false`, and it is neither analysed nor given a rule (the
    /// lowering's own grammar and analyses, before unreachable rules are pruned, hold nothing of it).
    @Test func aConjunctionWithFalseIsNotLowered() throws {
        let schema = ##"""
        {"allOf":[{"properties":{"a":{"type":"string"},"b":{"$ref":"#/$defs/deep"}}},
                  {"properties":{"a":{"type":"string"}},"additionalProperties":false}],
         "$defs":{"deep":{"type":"object","properties":{"x":{"type":"integer"}}}}}
        """##
        var lowering = SchemaLowering(document: try SchemaDocument(root: try JSONParser.parse(schema), defaultDraft: .draft2020_12),
                                      options: JSONSchemaCompileOptions())
        _ = try lowering.lowerRoot()
        let closed = try lowering.document.node(at: "/allOf/1/additionalProperties")
        // (The closing schema alone is analysed, to know whether undeclared members may be written.)
        #expect(!lowering.analysisIndex.keys.contains { key in key.count > 1 && key.contains { $0.node == closed } })
        #expect(!lowering.grammar.rules.contains { ["schema:/allOf/1/additionalProperties", "schema:/$defs/deep"].contains($0.name) })
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: schema, accept: ["{}", #"{"a":"s"}"#, "1", #""s""#],
            reject: [#"{"b":{}}"#, #"{"a":"s","b":{"x":1}}"#, #"{"a":1}"#, #"{"c":1}"#]))
    }
}
