import Foundation
import Testing
@testable import GuidedSchema

@Suite struct ValidatorTests {
    func violations(_ schema: String, _ instance: String, draft: JSONSchemaDraft = .draft2020_12) throws -> [String] {
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema), defaultDraft: draft)
        return validator.validate(try JSONParser.parse(instance)).map(\.description)
    }

    @Test func reportsEveryViolationWithPaths() throws {
        let schema = #"""
            {"type": "object", "required": ["id", "name"],
             "properties": {"id": {"type": "integer", "minimum": 1}, "name": {"type": "string"},
                            "tags": {"type": "array", "items": {"$ref": "#/$defs/tag"}, "uniqueItems": true}},
             "additionalProperties": false,
             "$defs": {"tag": {"type": "string", "pattern": "^[a-z]+$"}}}
            """#
        #expect(try violations(schema, #"{"id": 0, "tags": ["ok", "No", "ok"], "x": 1}"#) == [
            "at /id: 0 is less than the minimum 1 (schema /properties/id/minimum)",
            "at /tags/1: \"No\" does not match the pattern ^[a-z]+$ (schema /properties/tags/items/$ref/pattern)",
            "at /tags: items 0 and 2 are equal (schema /properties/tags/uniqueItems)",
            "at /x: property \"x\" is not allowed (schema /additionalProperties)",
            "at the root: missing required property \"name\" (schema /required)",
        ])
        #expect(try violations(schema, #"{"id": 3, "name": "n", "tags": []}"#) == [])
    }

    @Test func applicatorsReportOnce() throws {
        #expect(try violations(#"{"anyOf": [{"type": "string"}, {"minimum": 5}]}"#, "1") == [
            "at the root: 1 matches none of the 2 'anyOf' schemas (schema /anyOf)"
        ])
        #expect(try violations(#"{"oneOf": [{"type": "integer"}, {"minimum": 0}]}"#, "1") == [
            "at the root: 1 matches 'oneOf' schemas 0 and 1; exactly one must match (schema /oneOf)"
        ])
        #expect(try violations(#"{"not": {"type": "null"}}"#, "null") == [
            "at the root: null matches the 'not' schema (schema /not)"
        ])
        #expect(try violations(#"{"if": {"type": "integer"}, "then": {"maximum": 3}, "else": {"type": "string"}}"#, "4") == [
            "at the root: 4 is greater than the maximum 3 (schema /then/maximum)"
        ])
    }

    @Test func unevaluatedPropertiesSeeThroughApplicators() throws {
        let schema = #"""
            {"allOf": [{"properties": {"a": true}}], "anyOf": [{"properties": {"b": true}, "required": ["b"]}, true],
             "unevaluatedProperties": false}
            """#
        #expect(try violations(schema, #"{"a": 1, "b": 2}"#) == [])
        #expect(try violations(schema, #"{"a": 1, "c": 2}"#) == [
            "at /c: property \"c\" is not allowed (not evaluated by any subschema) (schema /unevaluatedProperties)"
        ])
    }

    @Test func exactNumbers() throws {
        #expect(try violations(#"{"multipleOf": 0.1}"#, "0.3") == [])
        #expect(try violations(#"{"multipleOf": 0.01}"#, "19.99") == [])
        #expect(try violations(#"{"multipleOf": 0.01}"#, "19.995").count == 1)
        #expect(try violations(#"{"maximum": 12345678901234567890}"#, "12345678901234567891").count == 1)
        #expect(try violations(#"{"type": "integer"}"#, "1.0") == [])
        #expect(try violations(#"{"type": "integer"}"#, "1.0", draft: .draft4) == [
            "at the root: expected integer, found integer 1.0 (schema /type)"
        ])
    }

    @Test func draft4ExclusiveBooleansAndDraftSpecificRef() throws {
        #expect(try violations(#"{"maximum": 3, "exclusiveMaximum": true}"#, "3", draft: .draft4).count == 1)
        // Before 2019-09 `$ref` hides its siblings; from 2019-09 on both apply.
        let schema = ##"{"$defs": {"s": {"type": "integer"}}, "definitions": {"s": {"type": "integer"}}, "$ref": "#/definitions/s", "maximum": 1}"##
        #expect(try violations(schema, "5", draft: .draft7) == [])
        #expect(try violations(schema, "5", draft: .draft2020_12).count == 1)
    }

    @Test func patternsFollowECMA262() throws {
        #expect(try violations(#"{"pattern": "^\\d$"}"#, #""\u0967""#).count == 1)  // Devanagari digit is not \d
        #expect(try violations(#"{"pattern": "^\\s$"}"#, #""\u00a0""#) == [])  // NBSP is \s
        #expect(try violations(#"{"pattern": "^\\p{Letter}+$"}"#, #""héllo""#) == [])
        #expect(try violations(#"{"pattern": "a$"}"#, #""a\n""#).count == 1)  // $ only at the very end
        #expect(try violations(#"{"pattern": "("}"#, #""x""#).first?.hasPrefix("at the root: the pattern ( cannot be compiled") == true)
    }

    @Test func unresolvableReferencesFailClosed() throws {
        #expect(try violations(#"{"$ref": "http://example.com/missing.json"}"#, "1") == [
            "at the root: cannot resolve the reference http://example.com/missing.json (no such schema is registered) (schema /$ref)"
        ])
    }

    @Test func uncheckableKeywordsFailEvenUnderDiscardingApplicators() throws {
        // Without this, `not` would turn an unresolvable reference into an accepted instance.
        #expect(try violations(#"{"not": {"$ref": "http://example.com/missing.json"}}"#, "1") == [
            "at the root: cannot resolve the reference http://example.com/missing.json (no such schema is registered) (schema /not/$ref)"
        ])
        #expect(try violations(#"{"anyOf": [{"pattern": "(?i)x"}, true]}"#, #""x""#) == [
            "at the root: the pattern (?i)x cannot be compiled (offset 0: '(?' group syntax that ECMA-262 does not have) (schema /anyOf/0/pattern)"
        ])
    }

    @Test func dynamicRefExtendsATree() throws {
        var registry = SchemaRegistry()
        registry.register(try JSONParser.parse(#"""
            {"$id": "https://example.com/tree", "$dynamicAnchor": "node", "type": "object",
             "properties": {"data": true, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}}
            """#), uri: "https://example.com/tree", defaultDraft: .draft2020_12)
        let strict = try JSONParser.parse(#"""
            {"$id": "https://example.com/strict-tree", "$dynamicAnchor": "node", "$ref": "tree", "unevaluatedProperties": false}
            """#)
        let validator = JSONSchemaValidator(schema: strict, registry: registry)
        #expect(validator.isValid(try JSONParser.parse(#"{"children": [{"data": 1}]}"#)))
        // The misspelt member fails the nested schema; that failure drops the nested annotations, so the
        // outer `unevaluatedProperties` also reports `children`.
        #expect(validator.validate(try JSONParser.parse(#"{"children": [{"daat": 1}]}"#)).map(\.instancePath) == ["/children/0/daat", "/children"])
    }

    @Test func deepNestingIsValidatedOrRefusedNeverCrashes() throws {
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(##"{"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#"}}]}"##))
        let depth = 60  // 3 evaluation levels per array level (anyOf branch, items, $ref)
        let deep = try JSONParser.parse(String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth))
        #expect(validator.isValid(deep))
        let tooDeep = try JSONParser.parse(String(repeating: "[", count: 500) + "1" + String(repeating: "]", count: 500))
        let violations = validator.validate(tooDeep)
        #expect(!violations.isEmpty)
        #expect(violations.contains { $0.message.hasPrefix("schema evaluation nests deeper than 200 levels") })
    }

    @Test func formatsWhenAsserted() throws {
        let validator = JSONSchemaValidator(schema: ["format": "date-time"], options: .init(formatAssertion: true))
        #expect(validator.isValid("2024-02-29T23:59:60Z"))
        #expect(!validator.isValid("2023-02-29T10:00:00Z"))
        #expect(JSONSchemaValidator(schema: ["format": "date-time"]).isValid("nonsense"))
        let ip = JSONSchemaValidator(schema: ["format": "ipv6"], options: .init(formatAssertion: true))
        #expect(ip.isValid("::ffff:192.168.0.1") && ip.isValid("1::") && !ip.isValid("1:::2") && !ip.isValid("12345::"))
    }

    /// "/" followed by a combining mark is one Character but two scalars: still a pointer and its separator.
    @Test func pointersAreReadByScalarsNotCharacters() throws {
        let pointer = JSONSchemaValidator(schema: ["format": "json-pointer"], options: .init(formatAssertion: true))
        #expect(pointer.isValid(.string("/\u{5C7}a")))
        #expect(!pointer.isValid(.string("a/b")))
        let relative = JSONSchemaValidator(schema: ["format": "relative-json-pointer"], options: .init(formatAssertion: true))
        #expect(relative.isValid(.string("0/\u{301}")))
        #expect(!relative.isValid(.string("01/a")))
        #expect(JSONPointer.tokens("/a/\u{301}b") == ["a", "\u{301}b"])
        #expect(JSONPointer.tokens("/\u{301}") == ["\u{301}"])
    }
}
