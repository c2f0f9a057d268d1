import Testing
@testable import GuidedSchema

/// Every guide maps to JSON Schema keywords; a guide on the wrong type is an error, never ignored.
@Suite("Schema guides")
struct SchemaGuideTests {
    static var keywordCases: [(SchemaGuide, OutputSchema, String)] {
        [
            (.anyOf(["a", "b"]), .string, #"{"type":"string","enum":["a","b"]}"#),
            (.constant("x"), .string, #"{"type":"string","const":"x"}"#),
            (.pattern("^[0-9]+$"), .string, #"{"type":"string","pattern":"^[0-9]+$"}"#),
            (.minLength(2), .string, #"{"type":"string","minLength":2}"#),
            (.maxLength(9), .string, #"{"type":"string","maxLength":9}"#),
            (.format(.email), .string, #"{"type":"string","format":"email"}"#),
            (.minimum(3), .integer, #"{"type":"integer","minimum":3}"#),
            (.maximum(2.5), .number, #"{"type":"number","maximum":2.5}"#),
            (.range(1...7), .integer, #"{"type":"integer","minimum":1,"maximum":7}"#),
            (.range(0.5...1.5), .number, #"{"type":"number","minimum":0.5,"maximum":1.5}"#),
            (.minimumCount(1), .array(of: .string), #"{"type":"array","items":{"type":"string"},"minItems":1}"#),
            (.maximumCount(4), .array(of: .string), #"{"type":"array","items":{"type":"string"},"maxItems":4}"#),
            (.count(3), .array(of: .string), #"{"type":"array","items":{"type":"string"},"minItems":3,"maxItems":3}"#),
            (.count(2...5), .array(of: .string), #"{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":5}"#),
            (.element(.range(0...9)), .array(of: .integer), #"{"type":"array","items":{"type":"integer","minimum":0,"maximum":9}}"#),
            (.element(.anyOf(["x"])), .array(of: .string), #"{"type":"array","items":{"type":"string","enum":["x"]}}"#),
        ]
    }

    @Test("each guide writes its keyword", arguments: 0..<16)
    func guideWritesKeyword(_ index: Int) throws {
        let (guide, schema, expected) = SchemaGuideTests.keywordCases[index]
        #expect(try schema.applying([guide]).jsonSchemaText() == expected, "\(guide)")
    }

    /// For each guide, an instance valid without it and invalid with it: no guide is decorative for the
    /// validator. (The same check against the compiled grammar waits for the JSON Schema compiler.)
    static var rejectionCases: [(SchemaGuide, OutputSchema, JSONValue)] {
        [
            (.anyOf(["a", "b"]), .string, "c"),
            (.constant("x"), .string, "y"),
            (.pattern("^[0-9]+$"), .string, "12a"),
            (.minLength(2), .string, "a"),
            (.maxLength(2), .string, "abc"),
            (.format(.email), .string, "not an email"),
            (.minimum(3), .integer, 2),
            (.maximum(2.5), .number, 2.6),
            (.range(1...7), .integer, 8),
            (.range(0.5...1.5), .number, 0.4),
            (.minimumCount(1), .array(of: .string), []),
            (.maximumCount(1), .array(of: .string), ["a", "b"]),
            (.count(2), .array(of: .string), ["a"]),
            (.count(2...3), .array(of: .string), ["a", "b", "c", "d"]),
            (.element(.range(0...9)), .array(of: .integer), [10]),
            (.element(.anyOf(["x"])), .array(of: .string), ["y"]),
        ]
    }

    @Test("each guide rejects an instance the unguided schema accepts", arguments: 0..<16)
    func guideRejects(_ index: Int) throws {
        let (guide, schema, instance) = SchemaGuideTests.rejectionCases[index]
        let options = JSONSchemaValidator.Options(formatAssertion: true)
        let plain = JSONSchemaValidator(schema: try schema.jsonSchema(), options: options)
        let guided = JSONSchemaValidator(schema: try schema.applying([guide]).jsonSchema(), options: options)
        #expect(plain.isValid(instance), "\(guide)")
        #expect(!guided.isValid(instance), "\(guide)")
    }

    static var wrongTypeCases: [(SchemaGuide, OutputSchema, String)] {
        [
            (.minLength(1), .integer, "integer"),
            (.anyOf(["a"]), .number, "number"),
            (.pattern("a"), .boolean, "boolean"),
            (.format(.date), .array(of: .string), "array"),
            (.minimum(1), .string, "string"),
            (.range(1...2), .boolean, "boolean"),
            (.count(2), .string, "string"),
            (.element(.minLength(1)), .integer, "integer"),
            (.maximum(1), .reference("X"), "reference #/$defs/X"),
            (.constant("a"), .nullable(.string), "anyOf"),
            (.minimumCount(1), .dictionary(of: .string), "dictionary"),
        ]
    }

    @Test("a guide on the wrong type is an error", arguments: 0..<11)
    func wrongType(_ index: Int) {
        let (guide, schema, typeName) = SchemaGuideTests.wrongTypeCases[index]
        #expect(throws: SchemaError.guideNotApplicable(guide: guide.description, schemaType: typeName, path: "")) {
            try schema.applying([guide])
        }
    }

    @Test func elementGuideOnWrongItemTypeNamesTheItemsPath() {
        #expect(throws: SchemaError.guideNotApplicable(guide: ".minLength(1)", schemaType: "integer", path: "/items")) {
            try OutputSchema.array(of: .integer).applying([.element(.minLength(1))])
        }
    }

    @Test func guidesTightenAndIntersect() throws {
        let s = try OutputSchema.string.applying([.anyOf(["a", "b", "c"]), .anyOf(["c", "b", "z"]), .minLength(1), .minLength(0)])
        #expect(try s.jsonSchemaText() == #"{"type":"string","enum":["b","c"],"minLength":1}"#)
        let n = try OutputSchema.integer.applying([.range(0...100), .minimum(10), .maximum(200)])
        #expect(try n.jsonSchemaText() == #"{"type":"integer","minimum":10,"maximum":100}"#)
    }

    @Test func contradictionsAreErrors() throws {
        #expect(throws: SchemaError.invalidGuide(guide: ".maxLength(2)", reason: "minLength 5 exceeds maxLength 2", path: "")) {
            try OutputSchema.string.applying([.minLength(5), .maxLength(2)])
        }
        #expect(throws: SchemaError.invalidGuide(guide: ".minimum(10)", reason: "minimum 10 exceeds maximum 5", path: "")) {
            try OutputSchema.integer.applying([.maximum(5), .minimum(10)])
        }
        #expect(throws: SchemaError.invalidGuide(guide: ".anyOf([])", reason: "needs at least one value", path: "")) {
            try OutputSchema.string.applying([.anyOf([])])
        }
        #expect(throws: SchemaError.invalidGuide(guide: ".count(-1)", reason: "count cannot be negative", path: "")) {
            try OutputSchema.array(of: .string).applying([.count(-1)])
        }
        #expect(throws: SchemaError.invalidGuide(guide: ".pattern(\"b\")", reason: "a string node has one pattern; already \"a\"", path: "")) {
            try OutputSchema.string.applying([.pattern("a"), .pattern("b")])
        }
        let bad = try #require(throws: SchemaError.self) { try OutputSchema.string.applying([.pattern("a(b")]) }
        guard case .invalidGuide(let g, let reason, _) = bad else { Issue.record("\(bad)"); return }
        #expect(g == ".pattern(\"a(b\")")
        #expect(reason.hasPrefix("not a valid regular expression: "))
        #expect(throws: SchemaError.invalidGuide(guide: ".constant(\"z\")", reason: "not among the allowed [\"a\"]", path: "")) {
            try OutputSchema.string.applying([.anyOf(["a"]), .constant("z")])
        }
    }
}
