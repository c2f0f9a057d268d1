import Testing
@testable import GuidedSchema

@Suite("JSON Schema import")
struct ImportTests {
    func imported(_ text: String, draft: JSONSchemaDraft? = nil) throws -> OutputSchema {
        try OutputSchema(jsonSchemaText: text, draft: draft)
    }

    func standard(_ text: String, draft: JSONSchemaDraft? = nil) throws -> String {
        try imported(text, draft: draft).jsonSchemaText()
    }

    @Test func xOrderAndPropertyOrderingReorderProperties() throws {
        let apple = #"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"},"c":{"type":"boolean"}},"x-order":["a","b"]}"#
        #expect(try standard(apple) == #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"},"c":{"type":"boolean"}}}"#)
        let gemini = #"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}},"propertyOrdering":["a","b"],"required":["b"]}"#
        #expect(try standard(gemini) == #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}},"required":["b"]}"#)
    }

    /// What Pydantic v2's `model_json_schema()` writes for a typical model imports whole.
    @Test func pydanticStyleSchemaImports() throws {
        let text = ##"""
            {"$defs":{"Address":{"properties":{"street":{"title":"Street","type":"string"}},"required":["street"],"title":"Address","type":"object"},
             "Color":{"enum":["red","green"],"title":"Color","type":"string"}},
             "properties":{"name":{"title":"Name","type":"string"},
              "age":{"anyOf":[{"type":"integer"},{"type":"null"}],"default":null,"title":"Age"},
              "kind":{"const":"person","title":"Kind","type":"string"},
              "home":{"$ref":"#/$defs/Address"},
              "colors":{"items":{"$ref":"#/$defs/Color"},"title":"Colors","type":"array"},
              "counts":{"additionalProperties":{"type":"integer"},"title":"Counts","type":"object"},
              "born":{"format":"date-time","title":"Born","type":"string"}},
             "required":["name","kind","home","colors","counts","born"],"title":"Person","type":"object"}
            """##
        let schema = try imported(text)
        guard case .object(let o) = schema.kind else { Issue.record("not an object"); return }
        #expect(o.properties.map(\.name) == ["name", "age", "kind", "home", "colors", "counts", "born"])
        #expect(o.properties.map(\.isRequired) == [true, false, true, true, true, true, true])
        #expect(schema.definitions.map(\.name) == ["Address", "Color"])
        #expect(o.properties[1].schema.defaultValue == .null)
        #expect(try schema.dialectViolations(for: .standard).isEmpty)
        #expect(try OutputSchema(jsonSchema: schema.jsonSchema()) == schema)
    }

    @Test func orderingNamingAnUnknownPropertyIsInvalid() {
        #expect(throws: SchemaError.invalidSchema(keyword: "x-order", pointer: "", reason: "\"z\" is not a declared property")) {
            try imported(#"{"type":"object","properties":{"a":{}},"x-order":["z"]}"#)
        }
    }

    @Test func typeListsBecomeAnyOfWithTheirOwnKeywords() throws {
        #expect(try standard(#"{"type":["string","null"],"maxLength":3}"#) == #"{"anyOf":[{"type":"string","maxLength":3},{"type":"null"}]}"#)
        #expect(try standard(#"{"type":["string","null"],"enum":["a",null,1]}"#) == #"{"enum":["a",null]}"#)
    }

    @Test func enumsAndConsts() throws {
        #expect(try standard(#"{"type":"string","enum":["a","b",3]}"#) == #"{"type":"string","enum":["a","b"]}"#)
        #expect(try standard(#"{"type":"integer","enum":[1,2.5,3.0]}"#) == #"{"enum":[1,3.0]}"#)
        #expect(try standard(#"{"enum":[1,"x",null]}"#) == #"{"enum":[1,"x",null]}"#)
        #expect(try standard(#"{"const":{"a":[1]}}"#) == #"{"const":{"a":[1]}}"#)
        #expect(try standard(#"{"type":"string","const":"k"}"#) == #"{"type":"string","const":"k"}"#)
    }

    @Test func draft4ExclusiveBoundsAndDefinitions() throws {
        let text = ##"{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":9},"t":{"$ref":"#/definitions/T"}},"definitions":{"T":{"type":"string"}}}"##
        #expect(try standard(text) == ##"{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0,"maximum":9},"t":{"$ref":"#/$defs/T"}},"$defs":{"T":{"type":"string"}}}"##)
    }

    @Test func requiredWithoutPropertySchemaTakesTheAdditionalSchema() throws {
        #expect(try standard(#"{"type":"object","required":["k"]}"#) == #"{"type":"object","properties":{"k":{}},"required":["k"]}"#)
        #expect(try standard(#"{"type":"object","required":["k"],"additionalProperties":{"type":"integer"}}"#)
            == #"{"type":"object","properties":{"k":{"type":"integer"}},"required":["k"],"additionalProperties":{"type":"integer"}}"#)
    }

    @Test func annotationsAreKeptOrIgnored() throws {
        #expect(try standard(#"{"type":"string","title":"T","description":"D","default":"x","examples":["y"],"$comment":"c"}"#)
            == #"{"type":"string","title":"T","description":"D","default":"x"}"#)
    }

    static var refusals: [(String, SchemaError)] {
        [
            (#"{"type":"string","allOf":[{}]}"#,
             .unsupportedKeyword(keyword: "allOf", pointer: "", reason: "OutputSchema has no allOf; rewrite it with anyOf, enum or separate properties")),
            (#"{"type":"object","properties":{"a":{"type":"array","prefixItems":[{}]}}}"#,
             .unsupportedKeyword(keyword: "prefixItems", pointer: "/properties/a", reason: "OutputSchema arrays have one item schema and item counts only")),
            (#"{"minLength":1}"#,
             .unsupportedKeyword(keyword: "minLength", pointer: "", reason: "without \"type\" it leaves every other type unconstrained, which OutputSchema cannot represent; add \"type\"")),
            (#"{"type":"string","minimum":1}"#,
             .unsupportedKeyword(keyword: "minimum", pointer: "", reason: "does not apply to the listed type; remove it")),
            (#"{"$ref":"other.json"}"#,
             .unsupportedKeyword(keyword: "$ref", pointer: "", reason: "\"other.json\" is not \"#\" or a root definition (#/$defs/NAME)")),
            (#"{"type":"array","items":false}"#,
             .unsupportedKeyword(keyword: "false", pointer: "/items", reason: "the false schema (no valid value) cannot be represented")),
            (#"{"type":"string","format":"color"}"#,
             .unsupportedKeyword(keyword: "format", pointer: "", reason: "unknown format \"color\" cannot be enforced")),
            (##"{"$ref":"#/$defs/a","maxItems":2}"##,
             .unsupportedKeyword(keyword: "maxItems", pointer: "", reason: "cannot be combined with \"$ref\" in one schema")),
            (#"{"type":"array","items":[{"type":"string"}]}"#,
             .unsupportedKeyword(keyword: "items", pointer: "", reason: "tuple form (an array of schemas) is not supported")),
            (#"{"type":"object","properties":{"a/b":{"type":"object","properties":{"c":{"not":{}}}}}}"#,
             .unsupportedKeyword(keyword: "not", pointer: "/properties/a~1b/properties/c", reason: "OutputSchema has no not; rewrite it with anyOf, enum or separate properties")),
            (##"{"$ref":"#/$defs/missing"}"##,
             .invalidSchema(keyword: "$ref", pointer: "", reason: "no definition named \"missing\"")),
            (#"{"type":"strung"}"#, .invalidSchema(keyword: "type", pointer: "", reason: "unknown type \"strung\"")),
            (#"{"type":"string","minLength":-1}"#, .invalidSchema(keyword: "minLength", pointer: "", reason: "must be a non-negative integer")),
            (#"{"$schema":"http://example.com/my-dialect"}"#,
             .unsupportedKeyword(keyword: "$schema", pointer: "", reason: "unknown dialect \"http://example.com/my-dialect\"")),
        ]
    }

    @Test("refusals name the keyword and pointer", arguments: 0..<14)
    func refusal(_ index: Int) {
        let (text, error) = ImportTests.refusals[index]
        #expect(throws: error) { try imported(text) }
    }

    @Test func draft7IgnoresSiblingsOfRefSoTheyAreRefused() {
        #expect(throws: SchemaError.unsupportedKeyword(keyword: "maxItems", pointer: "", reason: "is ignored beside $ref in draft7; remove it")) {
            try imported(##"{"definitions":{"a":{"type":"array"}},"$ref":"#/definitions/a","maxItems":2}"##, draft: .draft7)
        }
    }
}
