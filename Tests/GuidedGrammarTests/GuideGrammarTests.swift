import Testing
import GuidedSchema
import GuidedGrammar

/// No guide is decorative for the engine: for every guide of `SchemaGuide`, the grammar compiled from the
/// guided schema rejects an instance that the unguided schema's grammar accepts, and still accepts a
/// value the guide allows. (`SchemaGuideTests` checks the same against the validator.)
@Suite("Schema guides change the compiled grammar")
struct GuideGrammarTests {
    /// (guide, unguided schema, instance the guide forbids, instance the guide allows)
    static let cases: [(SchemaGuide, OutputSchema, JSONValue, JSONValue)] = [
        (.anyOf(["London", "New York", "Paris"]), .string, "Beijing", "New York"),
        (.constant("x"), .string, "y", "x"),
        (.pattern("^[0-9]+$"), .string, "12a", "123"),
        (.minLength(2), .string, "a", "ab"),
        (.maxLength(2), .string, "abc", "ab"),
        (.format(.email), .string, "not an email", "ada@example.com"),
        (.minimum(3), .integer, 2, 3),
        (.maximum(2.5), .number, 2.6, 2.5),
        (.range(1...7), .integer, 8, 7),
        (.range(0.5...1.5), .number, 0.4, 1.5),
        (.minimumCount(1), .array(of: .string), [], ["a"]),
        (.maximumCount(1), .array(of: .string), ["a", "b"], ["a"]),
        (.count(2), .array(of: .string), ["a"], ["a", "b"]),
        (.count(2...3), .array(of: .string), ["a", "b", "c", "d"], ["a", "b", "c"]),
        (.element(.range(0...9)), .array(of: .integer), [10], [9]),
        (.element(.anyOf(["x"])), .array(of: .string), ["y"], ["x"]),
    ]

    static func recognizer(_ schema: OutputSchema) throws -> ReferenceRecognizer {
        let grammar = try JSONSchemaCompiler.compile(try schema.jsonSchema(), options: JSONSchemaCompileOptions(whitespace: .compact))
        return try ReferenceRecognizer(grammar)
    }

    @Test("each guide restricts the grammar", arguments: 0..<16)
    func guideRestrictsGrammar(_ index: Int) throws {
        let (guide, schema, forbidden, allowed) = Self.cases[index]
        let plain = try Self.recognizer(schema)
        let guided = try Self.recognizer(try schema.applying([guide]))
        #expect(plain.accepts(forbidden.serialized(.compact)), "\(guide)")
        #expect(!guided.accepts(forbidden.serialized(.compact)), "\(guide)")
        #expect(guided.accepts(allowed.serialized(.compact)), "\(guide)")
    }
}
