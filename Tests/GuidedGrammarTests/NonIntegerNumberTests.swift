import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Numbers that are not integers (`not: {type: integer}`, a member or item failing `type: integer`): the
/// non-multiples of 1, written without an exponent (the departure every number under `multipleOf` has).
/// Every number text of up to five characters over `0 1 5 . - e` is decided: without an exponent as the
/// validator decides it, with one always rejected (never accepted where the validator rejects).
@Suite struct NonIntegerNumberTests {
    static let schemas: [String] = [
        #"{"not":{"type":"integer"}}"#,
        #"{"type":"number","minimum":0.5,"not":{"type":"integer"}}"#,
        // A member failing `type: integer` (the branch holds where the other does not).
        #"{"oneOf":[{"type":"object","properties":{"a":{"type":"integer"}}},{"required":["a"]}]}"#,
        // An array with an item that is not an integer.
        #"{"not":{"items":{"type":"integer"}}}"#,
    ]

    /// Every text over the alphabet of up to `n` characters that parses as a JSON number.
    static let numbers: [String] = {
        var out: [String] = []
        var frontier = [""]
        for _ in 0..<5 {
            frontier = frontier.flatMap { t in ["0", "1", "5", ".", "-", "e"].map { t + $0 } }
            for t in frontier where (try? JSONParser.parse(t))?.numberValue != nil { out.append(t) }
        }
        return out
    }()

    @Test(arguments: schemas)
    func nonIntegersAreExactWithoutExponents(_ schema: String) throws {
        #expect(Self.numbers.count > 300)
        let g = try JSONSchemaTestSupport.compile(schema, JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets))
        let oracle = GrammarMembership.Oracle(g)
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema))
        var accepted = 0
        for n in Self.numbers {
            let text = schema.contains("oneOf") ? #"{"a":\#(n)}"# : schema.contains("items") ? "[1,\(n)]" : n
            let valid = validator.isValid(try JSONParser.parse(text))
            let accepts = oracle.accepts(text)
            if n.contains("e") {
                #expect(!accepts || valid, "\(schema): \(text) accepted but invalid")
            } else {
                #expect(accepts == valid, "\(schema): \(text) should be \(valid ? "accepted" : "rejected")")
            }
            if accepts { accepted += 1 }
        }
        #expect(accepted > 20, "\(schema): \(accepted) accepted")
    }

    /// The departure: a non-integer written with an exponent is valid and rejected.
    @Test func exponentFormsAreLeftOut() throws {
        let g = try JSONSchemaTestSupport.compile(#"{"not":{"type":"integer"}}"#, JSONSchemaCompileOptions(whitespace: .compact))
        let oracle = GrammarMembership.Oracle(g)
        for text in ["2.5", "-0.05", "10.010"] { #expect(oracle.accepts(text), "\(text)") }
        for text in ["25e-1", "2", "2.0", "-0", "0.000"] { #expect(!oracle.accepts(text), "\(text)") }
    }
}
