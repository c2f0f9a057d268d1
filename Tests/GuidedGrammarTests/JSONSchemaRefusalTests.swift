import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Every refusal names the keyword and the JSON pointer of the schema holding it.
@Suite struct JSONSchemaRefusalTests {
    struct Refusal: Sendable, CustomTestStringConvertible {
        let schema: String
        let message: String
        var testDescription: String { schema }
    }

    static let refusals: [Refusal] = [
        Refusal(schema: ##"{"properties":{"a":{"$dynamicRef":"#x"}}}"##,
                message: "unsupported keyword '$dynamicRef' at /properties/a"),
        // uniqueItems over values: only items that never run out of distinct values (refusing a repeat
        // must leave something else to write).
        Refusal(schema: #"{"type":"array","uniqueItems":true,"items":{"type":"object","additionalProperties":false}}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced where items never run out of distinct values; objects that limit undeclared members (additionalProperties) run out"),
        Refusal(schema: #"{"type":"array","uniqueItems":true,"items":{"enum":[1,2]}}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced where items never run out of distinct values; listed items other than true, false and null run out"),
        Refusal(schema: #"{"type":"array","uniqueItems":true,"items":{"type":"integer","minimum":0}}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced where items never run out of distinct values; integers with a lower bound of zero or below run out"),
        Refusal(schema: #"{"type":"array","uniqueItems":true,"items":{"type":["number","string"],"maximum":9}}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced where items never run out of distinct values; bounded numbers run out"),
        Refusal(schema: #"{"type":"array","uniqueItems":true,"items":{"type":["boolean","null"]}}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced where items never run out of distinct values; these items are only true, false or null"),
        Refusal(schema: #"{"type":"array","uniqueItems":true,"items":{"type":"object","properties":{"t":{"type":"array","items":{"enum":["a","b","c","d","e","f","g"]},"uniqueItems":true}}}}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced where items never run out of distinct values; inside the items, only arrays of distinct strings without listed values may have uniqueItems"),
        Refusal(schema: #"{"type":"array","uniqueItems":true,"items":{"type":"array","uniqueItems":true}}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced where items never run out of distinct values; arrays with maxItems, maxContains, uniqueItems or constrained items run out"),
        Refusal(schema: #"{"uniqueItems":true,"contains":{"minLength":2},"items":{"type":"string"}}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced over string items, or over up to 6 listed strings, booleans or null; not beside contains"),
        Refusal(schema: #"{"$ref":"http://example.com/x.json"}"#,
                message: "unresolvable '$ref' at the root: 'http://example.com/x.json' is outside this document (remote references are not fetched)"),
        Refusal(schema: #"{"properties":{"a":{"if":{"patternProperties":{"^x":{"type":"integer"}}},"then":{"maxProperties":3}}}}"#,
                message: "keyword 'if' at /properties/a cannot be enforced exactly: its negation is exact only for type, enum, const, required, counts, lengths, bounds, pattern, format, multipleOf, properties, items, contains, dependencies and applicators of those, for additionalProperties, patternProperties and propertyNames inside a closed object, or when the values are listed by enum/const"),
        Refusal(schema: #"{"not":{"items":{"propertyNames":{"maxLength":1}}}}"#,
                message: "keyword 'not' at the root cannot be enforced exactly: its negation is exact only for type, enum, const, required, counts, lengths, bounds, pattern, format, multipleOf, properties, items, contains, dependencies and applicators of those, for additionalProperties, patternProperties and propertyNames inside a closed object, or when the values are listed by enum/const"),
        Refusal(schema: #"{"minLength":-1}"#, message: "invalid value for keyword 'minLength' at the root: must be a non-negative integer"),
        Refusal(schema: #"{"$schema":"http://example.com/custom"}"#,
                message: "unsupported keyword '$schema' at the root: unknown meta-schema 'http://example.com/custom'"),
        Refusal(schema: #"{"type":"array","items":{"type":"array","allOf":[{"contains":{"const":1},"maxContains":2},{"contains":{"const":2}}]}}"#,
                message: "keyword 'maxContains' at /items/allOf/0 cannot be enforced exactly: a maxContains beside another contains on the same array is not counted"),
        Refusal(schema: ##"{"$defs":{"a":{"dependentSchemas":{"x":{"not":{"properties":{"y":{"propertyNames":{"maxLength":1}}}}}}}},"$ref":"#/$defs/a"}"##,
                message: "keyword 'not' at /$defs/a/dependentSchemas/x cannot be enforced exactly: its negation is exact only for type, enum, const, required, counts, lengths, bounds, pattern, format, multipleOf, properties, items, contains, dependencies and applicators of those, for additionalProperties, patternProperties and propertyNames inside a closed object, or when the values are listed by enum/const"),
        Refusal(schema: #"{"type":"integer","multipleOf":982451653}"#,
                message: "schema too complex at keyword 'multipleOf' at the root: multipleOf 982451653 needs too many remainder states"),
        Refusal(schema: ##"{"$defs":{"a":{"$ref":"#/$defs/a"}},"properties":{"p":{"$ref":"#/$defs/a"}}}"##,
                message: "unsupported keyword '$ref' at /$defs/a: reference cycle that never reaches a keyword"),
        Refusal(schema: #"{"properties":{"k":{"type":"string","pattern":"(a)\\1"}}}"#,
                message: #"unsupported keyword 'pattern' at /properties/k: pattern "(a)\\1": backreference `\1` is not supported (not regular)"#),
        Refusal(schema: "{\"type\":\"object\",\"patternProperties\":{\"^p0_\":{},\"^p1_\":{},\"^p2_\":{},\"^p3_\":{},\"^p4_\":{},\"^p5_\":{},\"^p6_\":{},\"^p7_\":{},\"^p8_\":{},\"^p9_\":{},\"^p10_\":{},\"^p11_\":{},\"^p12_\":{},\"^p13_\":{},\"^p14_\":{},\"^p15_\":{},\"^p16_\":{},\"^p17_\":{},\"^p18_\":{},\"^p19_\":{},\"^p20_\":{},\"^p21_\":{},\"^p22_\":{},\"^p23_\":{},\"^p24_\":{},\"^p25_\":{},\"^p26_\":{},\"^p27_\":{},\"^p28_\":{},\"^p29_\":{},\"^p30_\":{},\"^p31_\":{},\"^p32_\":{}}}",
                message: "schema too complex at keyword 'patternProperties' at the root: more than 32 name patterns combined"),
        Refusal(schema: #"{"type":"object","propertyNames":{"not":{"maxLength":3,"uniqueItems":true}}}"#,
                message: "keyword 'propertyNames' at the root cannot be enforced exactly: undeclared names can be restricted only by enum/const, string keywords (pattern, length, format) and anyOf/oneOf of those"),
        // Items by position: a third boolean may find both values written before it.
        Refusal(schema: #"{"prefixItems":[{"type":"boolean"},{"type":"boolean"},{"type":"boolean"}],"uniqueItems":true}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced where items never run out of distinct values; item 2 is only true, false or null, which 2 items before it may use up"),
        Refusal(schema: #"{"items":{"type":"boolean"},"maxItems":3,"uniqueItems":true}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced where items never run out of distinct values; these items are only true, false or null"),
        // An integer-only position after one that may write 0.0: its 0 would be refused only after the digit.
        Refusal(schema: #"{"prefixItems":[{"type":"number"}],"items":{"type":"integer"},"uniqueItems":true}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced where items never run out of distinct values; positions of integers only beside positions of other numbers (a 0 could be left with no way on)"),
        // A listed string no endless alternative admits runs out ("a" written, `"a` has one completion).
        Refusal(schema: #"{"items":{"anyOf":[{"enum":["a"]},{"type":"string","minLength":2},{"type":"integer"}]},"uniqueItems":true}"#,
                message: "unsupported keyword 'uniqueItems' at the root: uniqueItems: true is enforced where items never run out of distinct values; listed items other than true, false and null run out"),
        // A malformed value under a negation is reported as the positive reading reports it, not as a
        // negation that cannot be made.
        Refusal(schema: #"{"not":{"dependentRequired":{"a":5}}}"#,
                message: "invalid value for keyword 'dependentRequired' at /not: values must be arrays of strings"),
        Refusal(schema: #"{"not":{"oneOf":5}}"#,
                message: "invalid value for keyword 'oneOf' at /not: must be a non-empty array of schemas"),
        Refusal(schema: #"{"oneOf":[{"type":"object"},{"not":{"anyOf":[]}}]}"#,
                message: "invalid value for keyword 'anyOf' at /oneOf/1/not: must be a non-empty array of schemas"),
        Refusal(schema: #"{"not":{"allOf":[{"properties":{"a":{"minLength":-1}}}]}}"#,
                message: "invalid value for keyword 'minLength' at /not/allOf/0/properties/a: must be a non-negative integer"),
    ]

    @Test(arguments: refusals)
    func refusalNamesKeywordAndPointer(_ r: Refusal) {
        let e = JSONSchemaTestSupport.error(r.schema)
        #expect(e?.description == r.message)
    }

    @Test func unsupportedPatternSyntaxIsRefused() {
        let e = JSONSchemaTestSupport.error(#"{"properties":{"s":{"type":"string","pattern":"(a)\\1"}}}"#)   // a backreference: not regular
        #expect(e?.keyword == "pattern" && e?.pointer == "/properties/s" && e?.kind == .unsupported)
    }
}
