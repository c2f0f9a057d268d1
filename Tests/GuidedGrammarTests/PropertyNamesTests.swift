import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `propertyNames` over undeclared names by string keywords (`pattern`, `minLength`/`maxLength`,
/// `format`, their negations): the names' content automaton is met with the undeclared members' name
/// automaton (beside `patternProperties` regions and the declared names), so such maps are exact
/// instead of refused. Each case is checked against the validator too, in declared order and in member
/// sets, and every name of up to three characters over a small alphabet is decided as the validator does.
@Suite struct PropertyNamesTests {
    static let orders: [JSONSchemaCompileOptions.PropertyOrder] = [.declared, .memberSets]

    static let cases: [SchemaCase] = [
        SchemaCase(schema: #"{"type":"object","propertyNames":{"pattern":"^[a-z]+$","maxLength":3}}"#,
                   accept: [#"{}"#, #"{"ab":1}"#, #"{"abc":1,"x":2}"#],
                   reject: [#"{"abcd":1}"#, #"{"A":1}"#, #"{"":1}"#, #"{"a1":1}"#, #"{"x":1,"A":2}"#]),
        // Pattern members, and a name allowed by `propertyNames` but matching no pattern falls to
        // `additionalProperties`.
        SchemaCase(schema: #"{"type":"object","patternProperties":{"^x":{"type":"integer"}},"additionalProperties":{"type":"string"},"propertyNames":{"maxLength":2}}"#,
                   accept: [#"{"xa":1}"#, #"{"ab":"s"}"#, #"{"x":1,"y":"s"}"#],
                   reject: [#"{"xa":"s"}"#, #"{"abc":"s"}"#, #"{"xab":1}"#, #"{"ab":1}"#]),
        // A declared name the names' schema refuses is forbidden; the others are checked one by one.
        SchemaCase(schema: #"{"type":"object","properties":{"long":{},"ok":{"type":"integer"}},"propertyNames":{"maxLength":2}}"#,
                   accept: [#"{"ok":1}"#, #"{"ab":true}"#],
                   reject: [#"{"long":1}"#, #"{"ok":"s"}"#, #"{"abc":1}"#]),
        // `.` reads no line terminator (ECMA-262): the escaped `\n` is one, `\t` is not.
        SchemaCase(schema: #"{"type":"object","propertyNames":{"pattern":"^a.$"}}"#,
                   accept: [#"{"ab":1}"#, #"{"a\t":1}"#, #"{"aé":1}"#],
                   reject: [#"{"a\n":1}"#, #"{"a":1}"#, #"{"abc":1}"#]),
        SchemaCase(schema: #"{"type":"object","propertyNames":{"not":{"pattern":"^_"}}}"#,
                   accept: [#"{"a":1}"#, #"{"a_":1}"#, #"{"":1}"#],
                   reject: [#"{"_a":1}"#, #"{"_":1}"#]),
        SchemaCase(schema: #"{"type":"object","propertyNames":{"format":"ipv4"},"additionalProperties":{"type":"boolean"}}"#,
                   accept: [#"{"1.2.3.4":true}"#, #"{}"#],
                   reject: [#"{"a":true}"#, #"{"1.2.3":true}"#, #"{"1.2.3.4":1}"#]),
        // Two schemas for names (an `allOf`), and an excluded name.
        SchemaCase(schema: #"{"type":"object","allOf":[{"propertyNames":{"minLength":2}},{"propertyNames":{"pattern":"^[ab]*$","not":{"const":"ab"}}}]}"#,
                   accept: [#"{"aa":1}"#, #"{"ba":1,"bbb":2}"#],
                   reject: [#"{"a":1}"#, #"{"ab":1}"#, #"{"ac":1}"#]),
        // `anyOf` of listed names and `not: {}` (JSON Schema Store's hook names), and `oneOf`: exactly one
        // branch, so a name both branches take is refused.
        SchemaCase(schema: #"{"type":"object","propertyNames":{"anyOf":[{"type":"string","enum":["Stop","Start"]},{"not":{}}]}}"#,
                   accept: [#"{"Stop":1}"#, #"{"Start":1,"Stop":2}"#], reject: [#"{"stop":1}"#, #"{"Stopped":1}"#]),
        SchemaCase(schema: #"{"type":"object","propertyNames":{"oneOf":[{"pattern":"^a"},{"maxLength":1}]}}"#,
                   accept: [#"{"ab":1}"#, #"{"b":1}"#, #"{"":1}"#], reject: [#"{"a":1}"#, #"{"bc":1}"#]),
        // Names no string satisfies: only the empty object.
        SchemaCase(schema: #"{"type":"object","propertyNames":{"minLength":3,"maxLength":2}}"#,
                   accept: [#"{}"#], reject: [#"{"a":1}"#, #"{"abc":1}"#]),
    ]

    @Test(arguments: cases, orders)
    func acceptsAndRejectsExactly(_ c: SchemaCase, _ order: JSONSchemaCompileOptions.PropertyOrder) throws {
        let options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: order)
        try JSONSchemaTestSupport.expectExactly(c, options: options)
        // The expectations themselves are the validator's (formats asserted, as the grammar enforces them).
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(c.schema), options: .init(formatAssertion: true))
        for text in c.accept { #expect(validator.isValid(try JSONParser.parse(text)), "validator rejects \(text)") }
        for text in c.reject { #expect(!validator.isValid(try JSONParser.parse(text)), "validator accepts \(text)") }
    }

    /// Short names (`namesAccepted`) under a pattern, a length and an excluded name.
    @Test(arguments: orders)
    func shortNamesAgreeWithTheValidator(_ order: JSONSchemaCompileOptions.PropertyOrder) throws {
        let schema = #"{"type":"object","properties":{"a1":{"type":"integer"}},"patternProperties":{"^_":{"type":"integer"}},"propertyNames":{"pattern":"^[a-z_][a-z0-9_]*$","maxLength":2,"not":{"const":"aa"}}}"#
        // a, _, a1 (declared), a_, _a, _1, __ (not aa; `1…` and `é` never start a name).
        #expect(try Self.namesAccepted(schema, order) == 7)
    }

    /// A negated `oneOf` over names (`SchemaLowering+ApplicatorNegation`): no branch or both hold, so a
    /// name is "a" alone (both) or two characters or more not starting with "a" (neither).
    @Test(arguments: orders)
    func negatedOneOfOverNamesAgreesWithTheValidator(_ order: JSONSchemaCompileOptions.PropertyOrder) throws {
        let schema = #"{"type":"object","propertyNames":{"not":{"oneOf":[{"maxLength":1},{"pattern":"^a"}]}}}"#
        // "a", and the 5 × 6 + 5 × 36 names of two or three characters whose first is not "a".
        #expect(try Self.namesAccepted(schema, order) == 211)
    }

    /// How many one-member objects `{"name":1}`, for every name of up to three characters over `a`, `_`,
    /// `1`, `é` and the escapes `\n`, `\u0000`, the grammar accepts, each decided as the validator does.
    static func namesAccepted(_ schema: String, _ order: JSONSchemaCompileOptions.PropertyOrder) throws -> Int {
        let g = try JSONSchemaTestSupport.compile(schema, JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: order))
        let oracle = GrammarMembership.Oracle(g)
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema))
        let alphabet = ["a", "_", "1", "é", "\\n", "\\u0000"]
        var names = [""]
        var frontier = [""]
        for _ in 0..<3 {
            frontier = frontier.flatMap { n in alphabet.map { n + $0 } }
            names += frontier
        }
        var accepted = 0
        for name in names {
            let text = "{\"\(name)\":1}"
            let expected = validator.isValid(try JSONParser.parse(text))
            #expect(oracle.accepts(text) == expected, "\(schema): \(text) should be \(expected ? "accepted" : "rejected")")
            if expected { accepted += 1 }
        }
        return accepted
    }
}
