import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Negations of applicators beside other keywords (`SchemaLowering+ApplicatorNegation`): `anyOf`,
/// `oneOf`, `allOf`, `not`, `$ref`, `if`/`then`/`else`, `dependencies` / `dependentSchemas` /
/// `dependentRequired`, and `format` beside `type`. Each schema is decided against the validator on every
/// object of up to three distinct members from {a, b, c} with values 1, "x" or {"a":1} in every order,
/// and on a few values of other types, with objects as member sets (any order).
@Suite struct ApplicatorNegationTests {
    static let draft7 = #""$schema":"http://json-schema.org/draft-07/schema#","#
    static let draft4 = #""$schema":"http://json-schema.org/draft-04/schema#","#

    static let schemas: [String] = [
        // oneOf whose branch is itself a oneOf: the other branch needs its negation (none or two hold).
        #"{"oneOf":[{"oneOf":[{"required":["a"]},{"required":["b"]}]},{"required":["c"]}]}"#,
        // not(type ∧ anyOf): not an object, or every anyOf branch fails.
        #"{"not":{"type":"object","anyOf":[{"required":["a"]},{"properties":{"b":{"type":"string"}}}]}}"#,
        // not(oneOf) of three branches: none holds, or two do.
        #"{"not":{"oneOf":[{"required":["a"]},{"required":["b"]},{"properties":{"c":{"type":"string"}}}]}}"#,
        // not(allOf beside required): the required name absent, or some part fails.
        #"{"not":{"required":["c"],"allOf":[{"required":["a"]},{"properties":{"b":{"type":"string"}}}]}}"#,
        // A `not` beside `required` in an overlapping branch: its negation is the inner schema.
        #"{"oneOf":[{"required":["a"],"not":{"required":["b","c"]}},{"required":["b"]}]}"#,
        // Schema and name dependencies (draft 7's `dependencies`) inside an overlapping branch.
        "{" + draft7 + #""oneOf":[{"required":["a"]},{"dependencies":{"a":{"required":["b"]},"c":["b"]}}]}"#,
        // The split forms (2020-12) under `not`.
        #"{"not":{"dependentRequired":{"a":["b","c"]},"dependentSchemas":{"b":{"properties":{"a":{"type":"string"}}}}}}"#,
        // not(if/then/else): (if ∧ not then) ∨ (not if ∧ not else).
        #"{"not":{"if":{"required":["a"]},"then":{"required":["b"]},"else":{"properties":{"c":{"type":"string"}}}}}"#,
        #"{"not":{"minProperties":1,"if":{"required":["a"]},"then":{"required":["b"]}}}"#,
        // An `if` with neither side constrains nothing: its negation is false.
        #"{"not":{"if":{"required":["a"]}}}"#,
        #"{"not":{"maxProperties":0,"if":{"required":["a"]}}}"#,
        // Draft 4 defines no `if`: the negation is that of `required` alone.
        "{" + draft4 + #""not":{"required":["a"],"if":{"required":["b"]},"then":false}}"#,
        // A reference beside another keyword (2019-09 on).
        ##"{"$defs":{"s":{"required":["a"]}},"not":{"$ref":"#/$defs/s","required":["b"]}}"##,
        // `format` beside `type`.
        #"{"not":{"type":"string","format":"date"}}"#,
        #"{"oneOf":[{"type":"string","format":"date"},{"type":"string","maxLength":3}]}"#,
    ]

    static let values = ["1", #""x""#, #"{"a":1}"#]

    /// Every object of up to three distinct members of {a, b, c}, each value one of `values`, in every
    /// order, then strings, numbers and other types.
    static let instances: [String] = {
        var objects: [String] = []
        for keys in JSONSchemaTestSupport.keySequences(["a", "b", "c"], upTo: 3) where Set(keys).count == keys.count {
            var bodies: [[String]] = [[]]
            for k in keys { bodies = bodies.flatMap { b in values.map { b + [#""\#(k)":\#($0)"#] } } }
            objects += bodies.map { "{" + $0.joined(separator: ",") + "}" }
        }
        return objects + ["1", #""x""#, #""abcd""#, #""2020-01-01""#, #""2020-13-01""#, "null", "[]", "[1]", "true"]
    }()

    @Test(arguments: schemas)
    func decidesAsTheValidator(_ schema: String) throws {
        #expect(Self.instances.count == 235)
        let options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets)
        let g = try JSONSchemaTestSupport.compile(schema, options)
        let oracle = GrammarMembership.Oracle(g)
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema), options: .init(formatAssertion: true))
        var valid = 0
        for text in Self.instances {
            let expected = validator.isValid(try JSONParser.parse(text))
            #expect(oracle.accepts(text) == expected, "\(schema): \(text) should be \(expected ? "accepted" : "rejected")")
            if expected { valid += 1 }
        }
        // A schema that admits nothing would make the rejections trivial; only the bare `if` is false.
        #expect((valid == 0) == (schema == #"{"not":{"if":{"required":["a"]}}}"#), "\(schema): \(valid) valid")
    }

    /// A reference cycle that never reaches a keyword, under `not`: the complement followed it until the
    /// stack overflowed (fuzz regression f13). A validator never finishes such an instance either; the
    /// grammar admits nothing.
    @Test func negatedReferenceCycleEnds() throws {
        let schema = ##"{"not":{"$ref":"#/$defs/a"},"$defs":{"a":{"anyOf":[{"$ref":"#/$defs/a"},{"type":"string"}]}}}"##
        let g = try JSONSchemaTestSupport.compile(schema, JSONSchemaCompileOptions(whitespace: .compact))
        let oracle = GrammarMembership.Oracle(g)
        for text in ["1", #""x""#, "null", "{}", "[]"] { #expect(!oracle.accepts(text), "\(text)") }
    }

    /// A negated `oneOf` of more than `maxNegatedOneOfBranches` branches stays one negated location,
    /// refused where nothing lists its values.
    @Test func wideNegatedOneOfIsRefused() {
        let branches = (0..<9).map { #"{"required":["k\#($0)"]}"# }.joined(separator: ",")
        let e = JSONSchemaTestSupport.error(#"{"not":{"oneOf":["# + branches + "]}}")
        #expect(e.map { "\($0)" } == "keyword 'not' at the root cannot be enforced exactly: its negation is exact only for type, enum, const, required, counts, lengths, bounds, pattern, format, multipleOf, properties, items, contains, dependencies and applicators of those, for additionalProperties, patternProperties and propertyNames inside a closed object, or when the values are listed by enum/const")
    }
}
