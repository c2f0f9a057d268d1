import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `contains` with `minContains`/`maxContains`, prefix items, item counts and other `contains`
/// (`lowerCountedContains`):
/// every array of up to 5 items over {1, 2, "a", true} (1,365 arrays) is accepted exactly when the
/// validator says it is valid, for each schema below.
@Suite struct CountedContainsTests {
    static let schemas: [String] = [
        #"{"contains":{"const":1},"maxContains":1}"#,
        #"{"contains":{"const":1},"minContains":2,"maxContains":3}"#,
        #"{"contains":{"const":1},"minContains":0,"maxContains":1}"#,
        #"{"contains":{"type":"integer"},"minContains":2}"#,
        #"{"contains":{"const":1},"maxItems":3}"#,
        #"{"contains":{"type":"integer"},"minContains":2,"minItems":4}"#,
        #"{"prefixItems":[{"type":"string"}],"contains":{"const":1}}"#,
        #"{"prefixItems":[true,{"const":2}],"items":{"type":["integer","boolean"]},"contains":{"type":"boolean"},"maxContains":1,"maxItems":4}"#,
        #"{"contains":{"const":1},"minContains":3,"maxContains":2}"#,
        // Several "at least" clauses count side by side; one item may count for both.
        #"{"allOf":[{"contains":{"const":1}},{"contains":{"type":"string"},"minContains":2}]}"#,
        #"{"allOf":[{"contains":{"const":1}},{"contains":{"type":"integer"}}],"maxItems":2}"#,
        #"{"contains":{"const":1},"minContains":3,"maxItems":2}"#,
    ]

    static func arrays(upTo n: Int) -> [String] { JSONSchemaTestSupport.arrays(of: ["1", "2", #""a""#, "true"], upTo: n) }

    @Test(arguments: schemas)
    func acceptsExactlyTheValidArrays(_ schema: String) throws {
        let g = try JSONSchemaTestSupport.compile(schema, JSONSchemaCompileOptions(whitespace: .compact))
        let oracle = GrammarMembership.Oracle(g)
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema))
        var valid = 0
        let all = Self.arrays(upTo: 5)
        for text in all {
            let expected = validator.isValid(try JSONParser.parse(text))
            #expect(oracle.accepts(text) == expected, "\(schema): \(text) should be \(expected ? "accepted" : "rejected")")
            if expected { valid += 1 }
        }
        #expect(all.count == 1_365)
        // The bounds that admit nothing: no array at all.
        #expect((valid == 0) == (schema.contains(#""minContains":3"#)))
    }

    /// Negations of array keywords: not(items: S) is an array with an item failing S, not(contains: C)
    /// an array whose every item fails C, under `not`, `if` and overlapping `oneOf` branches.
    static let negations: [String] = [
        #"{"not":{"items":{"const":1}}}"#,
        #"{"not":{"contains":{"const":1}}}"#,
        #"{"not":{"type":"array","items":{"type":"string"}}}"#,
        #"{"if":{"items":{"type":"string"}},"then":{"maxItems":2},"else":{"minItems":2}}"#,
        #"{"oneOf":[{"items":{"enum":[1,2]}},{"contains":{"const":2}}]}"#,
        #"{"$schema":"http://json-schema.org/draft-07/schema#","not":{"items":{"const":"a"}}}"#,
        // Draft 4 has no `contains` for a schema to write, but the made-up "some item fails" location
        // still says one: arrays of integers or of strings, the empty array in both.
        #"{"$schema":"http://json-schema.org/draft-04/schema#","not":{"items":{"enum":[1]}}}"#,
        #"{"$schema":"http://json-schema.org/draft-04/schema#","oneOf":[{"type":"array","items":{"type":"integer"}},{"type":"array","items":{"type":"string"}}]}"#,
    ]

    @Test(arguments: negations)
    func arrayNegationsAreExact(_ schema: String) throws {
        let g = try JSONSchemaTestSupport.compile(schema, JSONSchemaCompileOptions(whitespace: .compact))
        let oracle = GrammarMembership.Oracle(g)
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema))
        for text in Self.arrays(upTo: 4) + ["1", #""a""#, "{}", "null"] {
            let expected = validator.isValid(try JSONParser.parse(text))
            #expect(oracle.accepts(text) == expected, "\(schema): \(text) should be \(expected ? "accepted" : "rejected")")
        }
    }

    /// A `maxContains` needs the negation of the `contains` schema for the other items: refused where
    /// that negation is not exact, naming `contains` and its schema.
    @Test func inexactNegationIsRefused() {
        let e = JSONSchemaTestSupport.error(#"{"contains":{"propertyNames":{"maxLength":1}},"maxContains":1}"#)
        #expect(e.map { "\($0)" } == "keyword 'contains' at the root cannot be enforced exactly: its negation is exact only for type, enum, const, required, counts, lengths, bounds, pattern, format, multipleOf, properties, items, contains, dependencies and applicators of those, for additionalProperties, patternProperties and propertyNames inside a closed object, or when the values are listed by enum/const")
    }
}
