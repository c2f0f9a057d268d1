import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `unevaluatedProperties` / `unevaluatedItems` rewritten from the evaluated sets of the applicators
/// (`UnevaluatedRewrite`). Every case is checked twice: the grammar must accept and reject exactly the
/// listed texts (declared order and member sets), and the validator, written separately against the
/// specification, must agree with each expectation, so a wrong expectation fails too.
@Suite struct UnevaluatedKeywordTests {
    static let cases: [SchemaCase] = [
        // anyOf: the members of every passing branch count, not only those of one.
        SchemaCase(schema: #"{"anyOf":[{"properties":{"a":true},"required":["a"]},{"properties":{"b":true},"required":["b"]}],"unevaluatedProperties":false}"#,
                   accept: [#"{"a":1}"#, #"{"b":1}"#, #"{"a":1,"b":2}"#],
                   reject: [#"{"a":1,"c":1}"#, #"{"c":1}"#, #"{"b":1,"c":2}"#, #"{}"#]),
        // oneOf: only the branch that passes evaluates; "a" of a failing branch stays unevaluated.
        SchemaCase(schema: #"{"oneOf":[{"properties":{"a":{"type":"integer"}},"required":["a"]},{"properties":{"b":true},"required":["b"]}],"unevaluatedProperties":false}"#,
                   accept: [#"{"a":1}"#, #"{"b":"x"}"#],
                   reject: [#"{"a":1,"b":1}"#, #"{"a":"s","b":1}"#, #"{"a":1,"c":1}"#]),
        // if without then/else: its members count when it passes.
        SchemaCase(schema: #"{"if":{"properties":{"a":{"const":1}},"required":["a"]},"unevaluatedProperties":false}"#,
                   accept: [#"{"a":1}"#, #"{}"#],
                   reject: [#"{"a":2}"#, #"{"b":1}"#]),
        // if/then/else: a failing if evaluates nothing, so its member is left to else.
        SchemaCase(schema: #"{"if":{"properties":{"k":{"const":"x"}},"required":["k"]},"then":{"properties":{"t":true}},"else":{"properties":{"e":true}},"unevaluatedProperties":false}"#,
                   accept: [#"{"e":1}"#, #"{"k":"x"}"#, #"{"k":"x","t":1}"#, #"{}"#],
                   reject: [#"{"k":"y"}"#, #"{"k":"y","e":1}"#, #"{"k":"x","e":1}"#, #"{"t":1}"#]),
        // ... and else's members do not count when if passes, even where if itself evaluates nothing.
        SchemaCase(schema: #"{"if":{"required":["k"]},"then":{"properties":{"t":true}},"else":{"properties":{"k":true}},"unevaluatedProperties":false}"#,
                   accept: [#"{}"#, #""s""#],
                   reject: [#"{"k":1}"#, #"{"k":1,"t":1}"#, #"{"t":1}"#]),
        // dependentSchemas: the dependent members count only when the trigger is present.
        SchemaCase(schema: #"{"properties":{"a":true},"dependentSchemas":{"a":{"properties":{"b":true}}},"unevaluatedProperties":false}"#,
                   accept: [#"{"a":1,"b":2}"#, #"{"a":1}"#, #"{}"#],
                   reject: [#"{"b":2}"#, #"{"a":1,"c":1}"#]),
        // $ref beside the keyword (2019-09 on), and a schema for what is left.
        SchemaCase(schema: ##"{"$defs":{"base":{"properties":{"a":true}}},"$ref":"#/$defs/base","properties":{"b":true},"unevaluatedProperties":{"type":"integer"}}"##,
                   accept: [#"{"a":"s","b":"s"}"#, #"{"b":1}"#, #"{"c":1}"#],
                   reject: [#"{"c":"s"}"#, #"{"a":1,"c":"s"}"#]),
        // A nested unevaluatedProperties evaluates every member, whatever it allows.
        SchemaCase(schema: #"{"allOf":[{"properties":{"a":true},"unevaluatedProperties":true}],"unevaluatedProperties":false}"#,
                   accept: [#"{"a":1}"#, #"{"z":2}"#], reject: []),
        // ... and sees only its own subschema's members: "b" is unevaluated inside the allOf part.
        SchemaCase(schema: #"{"properties":{"b":true},"allOf":[{"properties":{"a":true},"unevaluatedProperties":false}],"unevaluatedProperties":false}"#,
                   accept: [#"{"a":1}"#, #"{}"#], reject: [#"{"b":1}"#, #"{"c":1}"#]),
        // patternProperties count by pattern; non-objects are untouched.
        SchemaCase(schema: #"{"patternProperties":{"^x":true},"anyOf":[{"properties":{"a":true}}],"unevaluatedProperties":{"type":"integer"}}"#,
                   accept: [#"{"x1":"s"}"#, #"{"a":"s"}"#, #"{"z":1}"#, #""s""#],
                   reject: [#"{"z":"s"}"#]),
        // Items: a branch's prefixItems count only when the branch passes.
        SchemaCase(schema: #"{"prefixItems":[{"type":"integer"}],"anyOf":[{"prefixItems":[true,{"type":"string"}]}],"unevaluatedItems":false}"#,
                   accept: [#"[1]"#, #"[1,"a"]"#, #"[]"#],
                   reject: [#"[1,2]"#, #"[1,"a",3]"#]),
        // contains (2020-12): the items it matches are evaluated wherever they stand.
        SchemaCase(schema: #"{"contains":{"type":"string"},"unevaluatedItems":{"type":"integer"}}"#,
                   accept: [#"["a",1]"#, #"["a","b"]"#, #"[1,"a"]"#],
                   reject: [#"[1,true,"a"]"#, #"[1]"#]),
        // dependentSchemas applies to objects only: an array gains nothing from it.
        SchemaCase(schema: #"{"prefixItems":[true],"dependentSchemas":{"a":{"prefixItems":[true,true]}},"unevaluatedItems":false}"#,
                   accept: [#"[1]"#, #"[]"#], reject: [#"[1,2]"#]),
        // Draft 2019-09: array-form items and additionalItems; contains evaluates nothing there.
        SchemaCase(schema: #"{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[{"type":"integer"}],"allOf":[{"items":[true,true]}],"unevaluatedItems":false}"#,
                   accept: [#"[1,2]"#, #"[1]"#], reject: [#"[1,2,3]"#, #"["a"]"#]),
        SchemaCase(schema: #"{"$schema":"https://json-schema.org/draft/2019-09/schema","contains":{"type":"string"},"unevaluatedItems":false}"#,
                   accept: [#""x""#], reject: [#"["a"]"#, #"[]"#]),
    ]

    @Test(arguments: cases)
    func acceptsExactlyTheValidInstances(_ c: SchemaCase) throws {
        let schema = try JSONParser.parse(c.schema)
        let validator = JSONSchemaValidator(schema: schema, defaultDraft: .draft2020_12)
        for text in c.accept { #expect(validator.isValid(try JSONParser.parse(text)), "validator: \(text) should be valid") }
        for text in c.reject { #expect(!validator.isValid(try JSONParser.parse(text)), "validator: \(text) should be invalid") }
        try JSONSchemaTestSupport.expectExactly(c)
        try JSONSchemaTestSupport.expectExactly(c, options: JSONSchemaCompileOptions(propertyOrder: .memberSets))
    }

    /// Where the evaluated sets cannot be decided, the keyword is refused, naming it and its location.
    @Test func undecidableSetsAreRefused() {
        let refusals: [(String, String)] = [
            (##"{"$defs":{"d":{"$dynamicAnchor":"x","properties":{"a":true}}},"allOf":[{"$dynamicRef":"#x"}],"unevaluatedProperties":false}"##,
             "keyword 'unevaluatedProperties' at the root cannot be enforced exactly: what it leaves depends on the '$dynamicRef' at /allOf/0, which is not resolved"),
            (#"{"dependencies":{"a":{"properties":{"b":true}}},"unevaluatedProperties":false}"#,
             "keyword 'unevaluatedProperties' at the root cannot be enforced exactly: what a schema-valued 'dependencies' at the root evaluates is not defined in draft 2020-12 (use dependentSchemas)"),
            (#"{"anyOf":[\#((0..<10).map { #"{"properties":{"p\#($0)":true}}"# }.joined(separator: ","))],"unevaluatedProperties":false}"#,
             "schema too complex at keyword 'unevaluatedProperties' at the root: more than 512 evaluated-set alternatives"),
        ]
        for (schema, message) in refusals {
            #expect(JSONSchemaTestSupport.error(schema).map { "\($0)" } == message, "\(schema)")
        }
    }

    /// The refusal is raised only where the lowering meets the keyword: an unused definition holding an
    /// undecidable one does not refuse the schema.
    @Test func unusedDefinitionsDoNotRefuse() throws {
        let g = try JSONSchemaTestSupport.compile(##"{"$defs":{"u":{"allOf":[{"$dynamicRef":"#x"}],"unevaluatedProperties":false}},"type":"integer"}"##)
        #expect(JSONSchemaTestSupport.accepts(g, "12"))
        #expect(!JSONSchemaTestSupport.accepts(g, "{}"))
    }
}
