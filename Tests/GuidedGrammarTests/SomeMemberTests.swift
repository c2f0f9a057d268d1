import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Negations of `additionalProperties`, `patternProperties` and `propertyNames` ("some member the keyword
/// rejects", `SchemaLowering+SomeMember`): exact where the object's names are finite (a closed part),
/// decided against the validator on `ApplicatorNegationTests.instances` (every object of up to three
/// distinct members of {a, b, c}, values 1, "x" or {"a":1}, every order, and other types), with objects
/// as member sets; refused where the names are not finite.
@Suite struct SomeMemberTests {
    static let closed = #""type":"object","properties":{"a":{},"b":{},"c":{}},"additionalProperties":false"#

    static let schemas: [String] = [
        // Two closed objects that overlap on {a}: exactly one holds where b xor c is present.
        #"{"oneOf":[{"type":"object","properties":{"a":{},"b":{}},"additionalProperties":false},{"type":"object","properties":{"a":{},"c":{}},"additionalProperties":false}]}"#,
        // Some member matching ^[ab]$ whose value is not a string.
        "{" + closed + #","not":{"patternProperties":{"^[ab]$":{"type":"string"}}}}"#,
        // Some member whose name is not a or b: c.
        "{" + closed + #","not":{"propertyNames":{"enum":["a","b"]}}}"#,
        // Some member besides a whose value is not a string.
        "{" + closed + #","not":{"properties":{"a":{}},"additionalProperties":{"type":"string"}}}"#,
        // Inside a closed object, a branch of patterns: "a" present fails it by its value, "b" by its own.
        #"{"type":"object","properties":{"a":{},"b":{}},"additionalProperties":false,"oneOf":[{"required":["a"]},{"patternProperties":{"^a":{"type":"string"}},"additionalProperties":{"type":"object"}}]}"#,
        // Listed values decided by the checker.
        #"{"enum":[{"a":1},{"b":"x"},{"c":1}],"not":{"properties":{"a":{}},"additionalProperties":{"type":"integer"}}}"#,
    ]

    @Test(arguments: schemas)
    func decidesAsTheValidator(_ schema: String) throws {
        let options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets)
        let g = try JSONSchemaTestSupport.compile(schema, options)
        let oracle = GrammarMembership.Oracle(g)
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema))
        var valid = 0
        for text in ApplicatorNegationTests.instances {
            let expected = validator.isValid(try JSONParser.parse(text))
            #expect(oracle.accepts(text) == expected, "\(schema): \(text) should be \(expected ? "accepted" : "rejected")")
            if expected { valid += 1 }
        }
        #expect(valid > 0, "\(schema): nothing valid")
    }

    /// Open objects, where a region's every member is rejected whatever its value (`additionalProperties:
    /// false`, a pattern's `false`): a declared name of the region present, or an undeclared member of the
    /// region that the member set requires (a witness).
    static let witnessed: [String] = [
        // A member outside {a, b}: c, undeclared here.
        #"{"type":"object","properties":{"a":{}},"not":{"properties":{"a":{},"b":{}},"additionalProperties":false}}"#,
        // A member outside {a}: c declared here (a string), or b undeclared.
        #"{"type":"object","properties":{"c":{"type":"string"}},"not":{"properties":{"a":{}},"additionalProperties":false}}"#,
        // A member matching ^[bc]$, the patterns of the location excluded from its additionalProperties.
        #"{"type":"object","not":{"patternProperties":{"^[bc]$":false}}}"#,
        #"{"type":"object","not":{"patternProperties":{"^b":{}},"additionalProperties":false}}"#,
        // c, named only by `dependentRequired`, is one of the object's own members, not an undeclared one:
        // it satisfies the negation as a member of its own.
        #"{"type":"object","properties":{"a":{}},"dependentRequired":{"c":["a"]},"not":{"properties":{"a":{},"b":{}},"additionalProperties":false}}"#,
        // Inside a oneOf beside an open branch.
        #"{"oneOf":[{"type":"object","required":["a"]},{"type":"object","properties":{"a":{},"b":{}},"additionalProperties":false}]}"#,
    ]

    @Test(arguments: witnessed)
    func witnessesDecideAsTheValidator(_ schema: String) throws {
        try decidesAsTheValidator(schema)
    }

    /// A witness is a member-set member: in declared order, and beside member counts (a witness's key may
    /// repeat among the undeclared members, so it cannot count toward `minProperties`), refused.
    @Test func witnessesNeedMemberSetsWithoutCounts() {
        let open = #"{"type":"object","not":{"properties":{"a":{}},"additionalProperties":false}}"#
        let message = "keyword 'not' at the root cannot be enforced exactly: its negation is exact only for type, enum, const, required, counts, lengths, bounds, pattern, format, multipleOf, properties, items, contains, dependencies and applicators of those, for additionalProperties, patternProperties and propertyNames inside a closed object, or when the values are listed by enum/const"
        #expect(JSONSchemaTestSupport.error(open, JSONSchemaCompileOptions(propertyOrder: .declared)).map { "\($0)" } == message)
        let counted = #"{"type":"object","minProperties":2,"not":{"properties":{"a":{}},"additionalProperties":false}}"#
        #expect(JSONSchemaTestSupport.error(counted, JSONSchemaCompileOptions(propertyOrder: .memberSets)).map { "\($0)" } == message)
    }

    /// Where the region's members are rejected only by their values, a repeated key could hide the
    /// witness from a validator that reads the last value: refused, naming the negation.
    @Test func openObjectsAreRefused() {
        let e = JSONSchemaTestSupport.error(#"{"type":"object","not":{"properties":{"a":{}},"additionalProperties":{"type":"string"}}}"#,
                                            JSONSchemaCompileOptions(propertyOrder: .memberSets))
        #expect(e.map { "\($0)" } == "keyword 'not' at the root cannot be enforced exactly: its negation is exact only for type, enum, const, required, counts, lengths, bounds, pattern, format, multipleOf, properties, items, contains, dependencies and applicators of those, for additionalProperties, patternProperties and propertyNames inside a closed object, or when the values are listed by enum/const")
    }

    /// `propertyNames: false` under `not` stays a fact (a non-empty object), open or not: with
    /// `minProperties: 2` beside it, every object fails one of the two and every other value neither.
    @Test func propertyNamesFalseStaysAFact() throws {
        try JSONSchemaTestSupport.expectExactly(SchemaCase(schema: #"{"not":{"minProperties":2,"propertyNames":false}}"#,
                                                           accept: ["{}", #"{"a":1}"#, #"{"a":1,"b":2}"#], reject: ["1", #""x""#, "null", "[]"]),
                                                options: JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets))
    }
}
