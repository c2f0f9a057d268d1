import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `contains` with `minContains`/`maxContains`, prefix items and item counts (`lowerCountedContains`):
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
        #"{"contains":{"const":1},"minContains":3,"maxItems":2}"#,
    ]

    static func arrays(upTo n: Int) -> [String] {
        let items = ["1", "2", #""a""#, "true"]
        var out: [[String]] = [[]]
        var frontier: [[String]] = [[]]
        for _ in 0..<n {
            frontier = frontier.flatMap { a in items.map { a + [$0] } }
            out += frontier
        }
        return out.map { "[" + $0.joined(separator: ",") + "]" }
    }

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

    /// A `maxContains` needs the negation of the `contains` schema for the other items: refused where
    /// that negation is not exact, naming `contains` and its schema.
    @Test func inexactNegationIsRefused() {
        let e = JSONSchemaTestSupport.error(#"{"contains":{"items":{"type":"integer"}},"maxContains":1}"#)
        #expect(e.map { "\($0)" } == "keyword 'contains' at the root cannot be enforced exactly: its negation is exact only for type, enum, const, required, counts, lengths, bounds, pattern, multipleOf, anyOf of those, or when the values are listed by enum/const")
    }
}
