import Testing
import GuidedSchema
@testable import GuidedGrammar

/// A check a validator could reach and cannot make (a `$ref` that points to nothing, a pattern that is
/// not one) refuses the schema, even where the lowering would drop its location as admitting nothing
/// (`SchemaDocument.refuseUncheckable`).
@Suite struct UncheckableLocationTests {
    /// The `validator` fuzz target's finding F12, shortened: the second branch requires a member its
    /// `additionalProperties: false` forbids, so the lowering dropped it unresolved, and the grammar
    /// took an instance the validator cannot decide (it evaluates the branch's `properties`).
    static let deadBranch = ##"{"type":"object","oneOf":[{"properties":{"v":{"type":"string"},"k":{"enum":["a"]}},"required":["v","k"],"additionalProperties":false},{"properties":{"v":{"$ref":"#/definitiondefinitions/p"}},"required":["v","k"],"additionalProperties":false}]}"##

    @Test func aBranchThatAdmitsNothingStillHasItsReferencesResolved() throws {
        #expect(JSONSchemaTestSupport.error(Self.deadBranch)?.description
                == "unresolvable '$ref' at /oneOf/1/properties/v: '#/definitiondefinitions/p' points to nothing")
        // Why: the validator fails the instance the first branch takes, at the reference.
        let schema = try JSONParser.parse(Self.deadBranch)
        let violations = JSONSchemaValidator(schema: schema).validate(try JSONParser.parse(#"{"v":"x","k":"a"}"#))
        #expect(violations.map(\.message) == ["cannot resolve the reference #/definitiondefinitions/p (no such schema is registered)"])
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let schema: String
        let refusal: String?
        var testDescription: String { schema }
    }

    static let cases: [Case] = [
        // Types that cannot meet: the `allOf` admits nothing, its `not` is never lowered.
        Case(schema: ##"{"anyOf":[{"type":"string"},{"allOf":[{"type":"number"},{"type":"string","not":{"$ref":"#/nope"}}]}]}"##,
             refusal: "unresolvable '$ref' at /anyOf/1/allOf/1/not: '#/nope' points to nothing"),
        // `properties` of a string schema: a validator skips them for strings, but the schema is refused.
        Case(schema: ##"{"type":"string","properties":{"a":{"$ref":"#/nope"}}}"##,
             refusal: "unresolvable '$ref' at /properties/a: '#/nope' points to nothing"),
        // Reached through a reference into the definitions: named where it is written.
        Case(schema: ##"{"$ref":"#/definitions/a","definitions":{"a":{"properties":{"x":{"$ref":"#/definitions/b"}}}}}"##,
             refusal: "unresolvable '$ref' at /definitions/a/properties/x: '#/definitions/b' points to nothing"),
        Case(schema: ##"{"properties":{"x":{"$ref":"other.json#/a"}}}"##,
             refusal: "unresolvable '$ref' at /properties/x: 'other.json#/a' is outside this document (remote references are not fetched)"),
        // A definition nothing refers to is never applied.
        Case(schema: ##"{"type":"string","definitions":{"a":{"$ref":"#/nope"}},"$defs":{"b":{"$ref":"#/nope"}}}"##, refusal: nil),
        // Before 2019-09 a `$ref` hides its siblings from validators; from 2019-09 on it does not.
        Case(schema: ##"{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"type":"string"}},"properties":{"p":{"$ref":"#/definitions/a","not":{"$ref":"#/nope"}}}}"##,
             refusal: nil),
        Case(schema: ##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"a":{"type":"string"}},"properties":{"p":{"$ref":"#/$defs/a","not":{"$ref":"#/nope"}}}}"##,
             refusal: "unresolvable '$ref' at /properties/p/not: '#/nope' points to nothing"),
        // `contentSchema` only annotates.
        Case(schema: ##"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"string","contentMediaType":"application/json","contentSchema":{"$ref":"#/nope"}}"##,
             refusal: nil),
        // Patterns: a syntax error is refused where the branch admits nothing too; a valid pattern the
        // automata cannot express is refused only where it is lowered (a validator checks it).
        Case(schema: ##"{"type":"object","oneOf":[{"properties":{"s":{"type":"string"}}},{"properties":{"s":{"pattern":"("}},"required":["t"],"additionalProperties":false}]}"##,
             refusal: "unsupported keyword 'pattern' at /oneOf/1/properties/s: pattern \"(\": missing `)` for the group opened here"),
        Case(schema: ##"{"type":"object","oneOf":[{"properties":{"s":{"type":"string"}}},{"patternProperties":{"[a":{}},"required":["t"],"additionalProperties":false}]}"##,
             refusal: "unsupported keyword 'patternProperties' at /oneOf/1: pattern \"[a\": missing `]` for the class opened here"),
        Case(schema: ##"{"type":"object","oneOf":[{"properties":{"s":{"type":"string"}}},{"properties":{"s":{"pattern":"(a)\\1"}},"required":["t"],"additionalProperties":false}]}"##,
             refusal: nil),
        // A reference cycle through the definitions is walked once.
        Case(schema: ##"{"$ref":"#/definitions/a","definitions":{"a":{"properties":{"next":{"$ref":"#/definitions/a"}}}}}"##, refusal: nil),
    ]

    @Test(arguments: cases)
    func refusedExactlyWhereAValidatorCouldReachIt(_ c: Case) {
        #expect(JSONSchemaTestSupport.error(c.schema)?.description == c.refusal)
    }

    /// A target with a relative `$id` of its own is walked under the base that identifier makes, once:
    /// resolving `sub/b.json` against itself again would look for `dir/sub/sub/b.json`.
    @Test func aTargetsOwnIdentifierSetsTheBaseOfItsReferences() throws {
        let schema = ##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"http://x.test/dir/a.json","$ref":"sub/b.json","$defs":{"b":{"$id":"sub/b.json","properties":{"q":{"$ref":"#/$defs/t"}},"$defs":{"t":{"type":"string"}}}}}"##
        let grammar = try JSONSchemaTestSupport.compile(schema)
        #expect(JSONSchemaTestSupport.accepts(grammar, #"{"q":"x"}"#))
        #expect(!JSONSchemaTestSupport.accepts(grammar, #"{"q":1}"#))
    }
}
