import Testing
import GuidedGrammar
import GuidedMask
import GuidedSchema
import GuidedTokenizers

private typealias S = MaskTestSupport

/// `dependentRequired` (and draft 7's array-form `dependencies`) in member sets: the closing rule checks,
/// against the members written, that every written member's dependencies are written too, so such
/// objects take any member order at any size (they used to fall back to `.anyOrder(maxMembers: 8)` and,
/// past 8 candidates, to declared order). Checked through the matcher against the validator.
@Suite struct MemberSetDependencyTests {
    static let options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets)
    static let schema = #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"}},"dependentRequired":{"a":["b"],"b":["c"]},"additionalProperties":{"type":"boolean"}}"#
    static let tokens = ["{", "}", #""a""#, #""b""#, #""c""#, #""x""#, ":", "1", ",", "true", #""a":1"#, "1}"]

    static func compiled(_ schema: String, _ options: JSONSchemaCompileOptions = Self.options) throws -> CompiledGrammar {
        try S.compiled(try JSONSchemaCompiler.compile(text: schema, options: options), S.vocabulary(tokens))
    }

    static func accepts(_ c: CompiledGrammar, _ text: String) -> Bool { S.accepts(c, text) }

    static func allowed(_ c: CompiledGrammar, after text: String) throws -> [String] {
        try S.allowed(c, after: text, tokens: tokens)
    }

    /// The closing brace only once the dependencies of the members written are in; a separator stays
    /// allowed while one is missing (the missing member can still be written: no dead end).
    @Test func masksFollowTheDependencies() throws {
        let c = try Self.compiled(Self.schema)
        #expect(try Self.allowed(c, after: "{") == ["}", #""a""#, #""b""#, #""c""#, #""x""#, #""a":1"#])
        #expect(try Self.allowed(c, after: #"{"a":1"#) == ["1", ","])
        #expect(try Self.allowed(c, after: #"{"a":1,"b":1"#) == ["1", ","])
        #expect(try Self.allowed(c, after: #"{"a":1,"b":1,"#) == [#""c""#, #""x""#])
        #expect(try Self.allowed(c, after: #"{"c":1,"a":1,"b":1"#) == ["}", "1", ",", "1}"])
        #expect(try Self.allowed(c, after: #"{"c":1"#) == ["}", "1", ",", "1}"])
    }

    /// Every key sequence over {a, b, c, x} up to length 5, x at most once (911 objects): the matcher
    /// accepts exactly what the validator calls valid (no declared key repeated), and every prefix it
    /// accepts can still complete.
    @Test func exhaustiveKeySequencesAgreeWithTheValidator() throws {
        let c = try Self.compiled(Self.schema)
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(Self.schema))
        var checked = 0, valid = 0
        for s in S.keySequences(["a", "b", "c", "x"], upTo: 5) where s.filter({ $0 == "x" }).count <= 1 {
            let body = s.map { "\"\($0)\":" + ($0 == "x" ? "true" : "1") }.joined(separator: ",")
            let text = "{" + body + "}"
            let parsed = try JSONParser.parse(text)
            let expected = Set(s).count == s.count && validator.isValid(parsed)
            #expect(Self.accepts(c, text) == expected, "\(text) should be \(expected ? "accepted" : "rejected")")
            if expected { valid += 1 }
            // Liveness: a prefix the matcher takes is completed by the members its dependencies still need.
            var m = GrammarMatcher(c)
            guard (try? m.accept(bytes: Array(("{" + body).utf8))) != nil else { continue }
            var missing: [String] = []
            for (k, needs) in [("a", "b"), ("b", "c")] where (s.contains(k) || missing.contains(k)) && !s.contains(needs) { missing.append(needs) }
            let completion = (s.isEmpty ? "" : ",") + missing.map { "\"\($0)\":1" }.joined(separator: ",") + "}"
            let tail = missing.isEmpty ? "}" : (s.isEmpty ? String(completion.dropFirst()) : completion)
            #expect(Self.accepts(c, "{" + body + tail), "no completion after {\(body)")
            checked += 1
        }
        // Valid: {}, {c}, {b,c}, {a,b,c} in every order, each with or without x: 2 + 3 + 8 + 30.
        #expect(valid == 43)
        #expect(checked > 43)
    }

    /// More candidates than `.anyOrder` tracks (it used to fall back to declared order here): eleven
    /// declared members and a dependency, written in reverse order.
    @Test func manyMembersInAnyOrder() throws {
        let names = (0..<11).map { "m\($0)" }
        let properties = names.map { "\"\($0)\":{\"type\":\"integer\"}" }.joined(separator: ",")
        let schema = #"{"type":"object","properties":{\#(properties)},"dependentRequired":{"m10":["m0"]}}"#
        let c = try Self.compiled(schema)
        let reversed = "{" + names.reversed().map { "\"\($0)\":1" }.joined(separator: ",") + "}"
        #expect(Self.accepts(c, reversed))
        #expect(Self.accepts(c, #"{"image":1,"m3":1}"#))
        #expect(!Self.accepts(c, #"{"m10":1,"m3":1}"#))
        #expect(Self.accepts(c, #"{"m10":1,"m3":1,"m0":2}"#))
        // Draft 7's array form is the same constraint.
        let draft7 = schema.replacingOccurrences(of: "dependentRequired", with: "dependencies")
            .replacingOccurrences(of: #"{"type":"object""#, with: #"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object""#)
        let c7 = try Self.compiled(draft7)
        #expect(!Self.accepts(c7, #"{"m10":1,"m3":1}"#))
        #expect(Self.accepts(c7, #"{"m10":1,"m0":2}"#))
    }

    /// A member that depends on one that can never be written is never offered: on a forbidden member
    /// (`false`), and on one whose value derives nothing (the mask compiler drops its call).
    @Test func membersDependingOnUnwritableOnes() throws {
        let forbidden = try Self.compiled(#"{"type":"object","properties":{"a":{},"b":false},"dependentRequired":{"a":["b"]}}"#)
        #expect(Self.accepts(forbidden, "{}"))
        #expect(Self.accepts(forbidden, #"{"x":true}"#))
        #expect(!Self.accepts(forbidden, #"{"a":1}"#))
        let empty = #"{"type":"object","minProperties":2,"patternProperties":{"^a":{}},"additionalProperties":false}"#
        let c = try Self.compiled(#"{"type":"object","properties":{"t":\#(empty),"a":{"type":"integer"}},"dependentRequired":{"a":["t"]}}"#)
        #expect(Self.accepts(c, "{}"))
        var m = GrammarMatcher(c)
        #expect(throws: MatcherError.self) { try m.accept(bytes: Array(#"{"a""#.utf8)) }
        // And a required member depending on such a member empties the object.
        let required = #"{"type":"object","properties":{"a":{},"b":false},"dependentRequired":{"a":["b"]},"required":["a"]}"#
        #expect(throws: (any Error).self) { _ = try Self.compiled(required) }
    }

    /// Exported as a grammar language (declared order), a member others must accompany is kept only
    /// where it is required, so the text accepts a subset of the language (and says it rewrote the rule).
    @Test func exportLeavesDependentMembersOut() throws {
        let g = try JSONSchemaCompiler.compile(text: Self.schema, options: Self.options)
        let exported = try g.exported(as: .gbnf)
        #expect(exported.declaredOrderRules.count == 1)
        let recognizer = try ReferenceRecognizer(try GBNFParser.parse(exported.text))
        for text in ["{}", #"{"c":1}"#, #"{"c":1,"x":true}"#] { #expect(recognizer.accepts(text), "\(text)") }
        for text in [#"{"b":1,"c":1}"#, #"{"a":1,"b":1,"c":1}"#, #"{"a":1}"#] { #expect(!recognizer.accepts(text), "\(text)") }
    }
}
