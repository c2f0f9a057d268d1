import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Declared order across `$ref` and `allOf`: members follow the schema's reading order (parts in the
/// order written; a location's own `properties` before or after its parts, as written), undeclared
/// members last, and a location reached twice along different paths is a diamond, not a reference cycle.
@Suite struct PropertyReadingOrderTests {
    static let compact = JSONSchemaCompileOptions(whitespace: .compact)

    static let cases: [SchemaCase] = [
        // allOf: [$ref A, B]: A's members first, although the reference is expanded from a deeper level.
        SchemaCase(schema: ##"{"$defs":{"a":{"properties":{"street":{"type":"string"}}}},"allOf":[{"$ref":"#/$defs/a"},{"properties":{"kind":{"enum":["home"]}}}]}"##,
                   accept: [#"{"street":"x","kind":"home"}"#, #"{"street":"x"}"#, #"{"kind":"home"}"#, "{}"],
                   reject: [#"{"kind":"home","street":"x"}"#, #"{"street":"x","kind":"work"}"#, #"{"street":1}"#],
                   options: compact),
        // allOf: [B, $ref A]: B's members first.
        SchemaCase(schema: ##"{"$defs":{"a":{"properties":{"street":{"type":"string"}}}},"allOf":[{"properties":{"kind":{"enum":["home"]}}},{"$ref":"#/$defs/a"}]}"##,
                   accept: [#"{"kind":"home","street":"x"}"#],
                   reject: [#"{"street":"x","kind":"home"}"#],
                   options: compact),
        // `properties` written after `allOf`: the parts' members come first.
        SchemaCase(schema: #"{"allOf":[{"properties":{"id":{"type":"integer"}}}],"properties":{"note":{"type":"string"}}}"#,
                   accept: [#"{"id":1,"note":"n"}"#],
                   reject: [#"{"note":"n","id":1}"#, #"{"id":"1","note":"n"}"#],
                   options: compact),
        // `properties` written before `allOf`: the location's own members come first.
        SchemaCase(schema: #"{"properties":{"note":{"type":"string"}},"allOf":[{"properties":{"id":{"type":"integer"}}}]}"#,
                   accept: [#"{"note":"n","id":1}"#],
                   reject: [#"{"id":1,"note":"n"}"#],
                   options: compact),
        // 2020-12 `$ref` next to `properties`: the same rule.
        SchemaCase(schema: ##"{"$defs":{"a":{"properties":{"id":{"type":"integer"}}}},"$ref":"#/$defs/a","properties":{"note":{"type":"string"}}}"##,
                   accept: [#"{"id":1,"note":"n"}"#],
                   reject: [#"{"note":"n","id":1}"#],
                   options: compact),
        // A diamond: both parts reach /$defs/a; the conjunction holds it once and compiles.
        SchemaCase(schema: ##"{"$defs":{"a":{"properties":{"id":{"type":"integer"}},"required":["id"]},"b":{"$ref":"#/$defs/a"}},"allOf":[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/b"}]}"##,
                   accept: [#"{"id":1}"#],
                   reject: ["{}", #"{"id":"1"}"#],
                   options: compact),
        // Undeclared members come after the declared ones.
        SchemaCase(schema: #"{"properties":{"a":{"type":"integer"},"b":{"type":"string"}},"required":["b"]}"#,
                   accept: [#"{"a":1,"b":"s","z":3}"#, #"{"b":"s","x":[]}"#],
                   reject: [#"{"x":1,"b":"s"}"#, #"{"b":"s","a":1}"#, #"{"b":"s","x":1,"b":"t"}"#],
                   options: compact),
        // With maxProperties the count of undeclared members is kept, and they come last.
        SchemaCase(schema: #"{"properties":{"a":{"type":"integer"}},"maxProperties":2}"#,
                   accept: [#"{"a":1,"x":1}"#, #"{"x":1}"#],
                   reject: [#"{"x":1,"a":1}"#, #"{"a":1,"x":1,"y":2}"#],
                   options: compact),
        // additionalProperties: false: nothing to interleave.
        SchemaCase(schema: #"{"properties":{"a":{"type":"integer"}},"additionalProperties":false}"#,
                   accept: [#"{"a":1}"#, "{}"], reject: [#"{"x":1,"a":1}"#, #"{"a":1,"x":1}"#],
                   options: compact),
    ]

    @Test(arguments: cases)
    func membersFollowReadingOrder(_ c: SchemaCase) throws {
        try JSONSchemaTestSupport.expectExactly(c)
    }

    @Test func cycleThroughTwoReferencesIsRefused() {
        let e = JSONSchemaTestSupport.error(##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}"##)
        // The root and /$defs/a only refer onward, so lowering starts at /$defs/b; the `$ref` that closes
        // the cycle from there is a's.
        #expect(e?.description == "unsupported keyword '$ref' at /$defs/a: reference cycle that never reaches a keyword")
    }
}
