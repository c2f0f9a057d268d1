import Testing
import GuidedGrammar
import GuidedMask
import GuidedSchema
import GuidedTokenizers

private typealias S = MaskTestSupport

/// `minProperties`, `maxProperties` and a finite `maxUndeclaredProperties` in member sets: the member-set
/// rule keeps the count of undeclared members beside the declared members' bits (`MemberCounts`), the
/// closing rule needs `minProperties` members, and a member is offered only while the object can still
/// close within its counts with it. Such objects take any member order at any size (they used to fall
/// back to `.anyOrder(maxMembers: 8)` and, past 8 candidates, to declared order). Checked through the
/// matcher against the validator, with the one documented departure: toward `minProperties` undeclared
/// members count as one at most (their keys are not tracked, so two might be one key).
@Suite struct MemberSetCountTests {
    static let options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets)
    static let tokens = ["{", "}", #""a""#, #""b""#, #""c""#, #""x""#, #""y""#, ":", "1", ",", "true", #""a":1"#, "1}"]
    static let integer = #"{"type":"integer"}"#

    /// The schema compiled; its objects with counts must be member-set rules with counts (not the
    /// `.anyOrder` fallback, which is exact too at this size and would leave the counts untested).
    static func compiled(_ schema: String, _ options: JSONSchemaCompileOptions = Self.options) throws -> CompiledGrammar {
        let g = try JSONSchemaCompiler.compile(text: schema, options: options)
        #expect(g.rules.contains { $0.tracksMembers && $0.memberCounts != nil }, "no member-set rule with counts")
        return try S.compiled(g, S.vocabulary(tokens))
    }

    static func accepts(_ c: CompiledGrammar, _ text: String) -> Bool { S.accepts(c, text) }

    static func allowed(_ c: CompiledGrammar, after text: String) throws -> [String] {
        try S.allowed(c, after: text, tokens: tokens)
    }

    /// Expectations name only plain values: Swift Testing reflects the operands of a failed expectation,
    /// and reflecting a `CompiledGrammar` traps (it holds non-copyable storage).
    static func expectAllowed(_ c: CompiledGrammar, after text: String, _ expected: [String],
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let got = try allowed(c, after: text)
        #expect(got == expected, "after \(text)", sourceLocation: sourceLocation)
    }

    static func expectAccepts(_ c: CompiledGrammar, _ text: String, _ expected: Bool = true,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let got = accepts(c, text)
        #expect(got == expected, "\(text) should be \(expected ? "accepted" : "rejected")", sourceLocation: sourceLocation)
    }

    static func member(_ key: String, declared: [String]) -> String {
        "\"\(key)\":" + (declared.contains(key) ? "1" : "true")
    }

    /// Every key sequence up to `length` members over the declared and undeclared keys, no undeclared key
    /// twice: the matcher accepts exactly the objects the validator calls valid that repeat no key and
    /// that reach `minimum` with undeclared members counted once at most (and, with `undeclaredLimit`,
    /// have at most that many); and every prefix the matcher takes completes with some key sequence.
    static func agree(_ schema: String, declared: [String], undeclared: [String], minimum: Int, undeclaredLimit: Int = .max,
                      options: JSONSchemaCompileOptions = Self.options, length: Int = 4) throws -> (checked: Int, valid: Int) {
        let c = try compiled(schema, options)
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema))
        let keys = declared + undeclared
        let sequences = S.keySequences(keys, upTo: length)
        let completions = [""] + S.keySequences(keys, upTo: 3).filter { !$0.isEmpty }.map { $0.map { member($0, declared: declared) }.joined(separator: ",") }
        var checked = 0, valid = 0
        for s in sequences where undeclared.allSatisfy({ u in s.filter { $0 == u }.count <= 1 }) {
            let body = s.map { member($0, declared: declared) }.joined(separator: ",")
            let text = "{" + body + "}"
            let written = s.filter { declared.contains($0) }, extra = s.count - written.count
            let parsed = try JSONParser.parse(text)
            let expected = Set(s).count == s.count && validator.isValid(parsed)
                && written.count + min(extra, 1) >= minimum && extra <= undeclaredLimit
            expectAccepts(c, text, expected)
            if expected { valid += 1 }
            var m = GrammarMatcher(c)
            guard (try? m.accept(bytes: Array(("{" + body).utf8))) != nil else { continue }
            let live = completions.contains { tail in
                let more = tail.isEmpty ? "}" : (body.isEmpty ? tail : "," + tail) + "}"
                return accepts(c, "{" + body + more)
            }
            #expect(live, "no completion after {\(body)")
            checked += 1
        }
        return (checked, valid)
    }

    /// A closed object: `a` required, two or three members of a, b, c.
    @Test func closedObjectAgreesWithTheValidator() throws {
        let schema = #"{"type":"object","properties":{"a":\#(Self.integer),"b":\#(Self.integer),"c":\#(Self.integer)},"required":["a"],"minProperties":2,"maxProperties":2,"additionalProperties":false}"#
        let (checked, valid) = try Self.agree(schema, declared: ["a", "b", "c"], undeclared: [], minimum: 2)
        // {a,b} and {a,c} in both orders.
        #expect(valid == 4)
        #expect(checked > valid)
    }

    /// Undeclared members count toward `maxProperties` one by one.
    @Test func openObjectAgreesWithTheValidator() throws {
        let schema = #"{"type":"object","properties":{"a":\#(Self.integer),"b":\#(Self.integer)},"minProperties":2,"maxProperties":3,"additionalProperties":{"type":"boolean"}}"#
        let (checked, valid) = try Self.agree(schema, declared: ["a", "b"], undeclared: ["x", "y"], minimum: 2)
        // Two members with at least one declared: {a,b}, {a,x}, {a,y}, {b,x}, {b,y} in 2 orders = 10;
        // three members from a, b, x, y with at least one declared: 4 sets in 6 orders = 24.
        #expect(valid == 34)
        #expect(checked > valid)
    }

    /// Only a minimum, over an open object: `{"x":true,"y":true}` is valid but rejected (the departure).
    @Test func minimumOnlyCountsUndeclaredMembersOnce() throws {
        let schema = #"{"type":"object","properties":{"a":\#(Self.integer)},"minProperties":2,"additionalProperties":{"type":"boolean"}}"#
        let (_, valid) = try Self.agree(schema, declared: ["a"], undeclared: ["x", "y"], minimum: 2)
        // {a,x}, {a,y} in 2 orders; {a,x,y} in 6.
        #expect(valid == 10)
        Self.expectAccepts(try Self.compiled(schema), #"{"x":true,"y":true}"#, false)
    }

    /// Without a maximum or an undeclared limit only "none yet / some" of the undeclared members matters,
    /// so a map's further members reuse the automaton states of its second: the state count stops
    /// growing (it grew by a state set per member when the count ran on to 200).
    @Test func minimumOnlyKeepsTheUndeclaredCountAtOne() throws {
        let c = try Self.compiled(#"{"type":"object","properties":{"a":\#(Self.integer)},"minProperties":1,"additionalProperties":{"type":"boolean"}}"#)
        func states(after members: Int) -> Int {
            let text = "{" + (0..<members).map { _ in #""x":true"# }.joined(separator: ",") + "}"
            Self.expectAccepts(c, text)
            return c.stateCount
        }
        let early = states(after: 3)
        #expect(states(after: 12) == early)
    }

    /// Pattern members are undeclared members too; names matching no pattern stay forbidden.
    @Test func patternMembersCount() throws {
        let schema = #"{"type":"object","properties":{"a":\#(Self.integer)},"patternProperties":{"^x":{"type":"boolean"}},"additionalProperties":false,"maxProperties":2}"#
        let (_, valid) = try Self.agree(schema, declared: ["a"], undeclared: ["x", "y"], minimum: 0)
        // {}, {a}, {x}, {a,x} in 2 orders.
        #expect(valid == 5)
    }

    /// `maxUndeclaredProperties` with declared members in any order.
    @Test func undeclaredLimitOption() throws {
        var options = Self.options
        options.maxUndeclaredProperties = 1
        let schema = #"{"type":"object","properties":{"a":\#(Self.integer),"b":\#(Self.integer)},"additionalProperties":{"type":"boolean"}}"#
        let (_, valid) = try Self.agree(schema, declared: ["a", "b"], undeclared: ["x", "y"], minimum: 0, undeclaredLimit: 1, options: options)
        // At most one of x, y beside any subset of a, b, in every order: {} 1, one member 4, {a,b} 2,
        // one declared and one undeclared 4·2 = 8, {a,b} with x or y 2·6 = 12.
        #expect(valid == 27)
    }

    /// The closing brace once `minProperties` is met, a separator only while another member can still
    /// be written within `maxProperties`.
    @Test func masksFollowTheCounts() throws {
        let closed = try Self.compiled(#"{"type":"object","properties":{"a":\#(Self.integer),"b":\#(Self.integer),"c":\#(Self.integer)},"required":["a"],"minProperties":2,"maxProperties":2,"additionalProperties":false}"#)
        try Self.expectAllowed(closed, after: "{", [#""a""#, #""b""#, #""c""#, #""a":1"#])
        try Self.expectAllowed(closed, after: #"{"a":1"#, ["1", ","])
        try Self.expectAllowed(closed, after: #"{"a":1,"#, [#""b""#, #""c""#])
        try Self.expectAllowed(closed, after: #"{"b":1,"#, [#""a""#, #""a":1"#])
        try Self.expectAllowed(closed, after: #"{"a":1,"b":1"#, ["}", "1", "1}"])
        let open = try Self.compiled(#"{"type":"object","properties":{"a":\#(Self.integer)},"minProperties":1,"maxProperties":2,"additionalProperties":{"type":"boolean"}}"#)
        try Self.expectAllowed(open, after: "{", [#""a""#, #""b""#, #""c""#, #""x""#, #""y""#, #""a":1"#])
        try Self.expectAllowed(open, after: #"{"x":true"#, ["}", ","])
        try Self.expectAllowed(open, after: #"{"x":true,"y":true"#, ["}"])
        try Self.expectAllowed(open, after: #"{"x":true,"a":1"#, ["}", "1", "1}"])
    }

    /// Counts beside dependencies: a written member brings those it depends on into what the object
    /// must have, so under `maxProperties: 2` a member whose dependency would make three is not offered.
    @Test func countsWithDependencies() throws {
        let closed = #"{"type":"object","properties":{"a":\#(Self.integer),"b":\#(Self.integer),"c":\#(Self.integer)},"dependentRequired":{"a":["b"]},"minProperties":2,"maxProperties":2,"additionalProperties":false}"#
        let (_, valid) = try Self.agree(closed, declared: ["a", "b", "c"], undeclared: [], minimum: 2)
        // {a,b} and {b,c} in both orders ({a,c} would need b too).
        #expect(valid == 4)
        let c = try Self.compiled(closed)
        try Self.expectAllowed(c, after: #"{"a":1,"#, [#""b""#])
        try Self.expectAllowed(c, after: #"{"c":1,"#, [#""b""#])
        try Self.expectAllowed(c, after: #"{"b":1,"#, [#""a""#, #""c""#, #""a":1"#])
        let open = #"{"type":"object","properties":{"a":\#(Self.integer),"b":\#(Self.integer)},"dependentRequired":{"a":["b"]},"maxProperties":2,"additionalProperties":{"type":"boolean"}}"#
        let (_, openValid) = try Self.agree(open, declared: ["a", "b"], undeclared: ["x", "y"], minimum: 0)
        // {} 1; {b}, {x}, {y} 3; {a,b} 2, {b,x} 2, {b,y} 2, {x,y} 2.
        #expect(openValid == 12)
        // Through a chain: `a` needs `b`, which needs `c`, so `a` would make three and is never offered
        // (offered, it was a dead end two members later).
        let chain = #"{"type":"object","properties":{"a":\#(Self.integer),"b":\#(Self.integer),"c":\#(Self.integer)},"dependentRequired":{"a":["b"],"b":["c"]},"maxProperties":2,"additionalProperties":false}"#
        let (_, chainValid) = try Self.agree(chain, declared: ["a", "b", "c"], undeclared: [], minimum: 0)
        // {}, {c}, {b,c} in both orders.
        #expect(chainValid == 4)
        try Self.expectAllowed(try Self.compiled(chain), after: "{", ["}", #""b""#, #""c""#])
    }

    /// Members that depend on each other can only come together, so not every count is reachable and
    /// such an object keeps `.anyOrder` (exact at this size) instead of counts in member sets.
    @Test func mutualDependenciesKeepAnyOrder() throws {
        let schema = #"{"type":"object","properties":{"a":\#(Self.integer),"b":\#(Self.integer),"c":\#(Self.integer)},"dependentRequired":{"a":["b"],"b":["a"]},"maxProperties":2,"additionalProperties":false}"#
        let g = try JSONSchemaCompiler.compile(text: schema, options: Self.options)
        #expect(!g.rules.contains { $0.memberCounts != nil })
        let c = try S.compiled(g, S.vocabulary(Self.tokens))
        for text in ["{}", #"{"c":1}"#, #"{"b":1,"a":1}"#] { Self.expectAccepts(c, text) }
        for text in [#"{"a":1}"#, #"{"a":1,"b":1,"c":1}"#, #"{"a":1,"c":1}"#] { Self.expectAccepts(c, text, false) }
    }

    /// Alternatives that are objects are joined into one member-set rule (`joiningMemberSets`), but an
    /// object with counts stays a rule of its own: joined, `{"a":1,"b":1}` would pass as the first
    /// alternative's members without its `maxProperties`.
    @Test func objectsWithCountsAreNotJoined() throws {
        let schema = #"{"anyOf":[{"type":"object","properties":{"a":\#(Self.integer),"b":\#(Self.integer)},"maxProperties":1,"additionalProperties":false},{"type":"object","properties":{"c":\#(Self.integer)},"additionalProperties":false}]}"#
        let c = try Self.compiled(schema)
        for text in ["{}", #"{"a":1}"#, #"{"b":1}"#, #"{"c":1}"#] { Self.expectAccepts(c, text) }
        for text in [#"{"a":1,"b":1}"#, #"{"b":1,"a":1}"#, #"{"a":1,"c":1}"#] { Self.expectAccepts(c, text, false) }
    }

    /// Twelve declared members, `maxProperties` 12 (it used to fall back to declared order here):
    /// written in reverse order, and a thirteenth member refused.
    @Test func manyMembersInAnyOrder() throws {
        let names = (0..<12).map { "m\($0)" }
        let properties = names.map { "\"\($0)\":{\"type\":\"integer\"}" }.joined(separator: ",")
        let schema = #"{"type":"object","properties":{\#(properties)},"minProperties":12,"maxProperties":12}"#
        let c = try Self.compiled(schema)
        let reversed = "{" + names.reversed().map { "\"\($0)\":1" }.joined(separator: ",") + "}"
        Self.expectAccepts(c, reversed)
        Self.expectAccepts(c, "{" + names.dropFirst().map { "\"\($0)\":1" }.joined(separator: ",") + "}", false)
        let eleven = names.dropFirst().map { "\"\($0)\":1" }.joined(separator: ",")
        Self.expectAccepts(c, "{" + eleven + #","x":true}"#)
        Self.expectAccepts(c, "{" + eleven + #","x":true,"m0":1}"#, false)
    }

    /// Counts no set of writable members meets empty the object: required members beyond the maximum,
    /// a minimum beyond the members that can be written (undeclared ones counting once).
    @Test func impossibleCountsEmptyTheObject() throws {
        let tooMany = #"{"type":"object","properties":{"a":{},"b":{},"c":{}},"required":["a","b","c"],"maxProperties":2}"#
        #expect(throws: GrammarCompileError.emptyLanguage) { _ = try Self.compiled(tooMany) }
        let tooFew = #"{"type":"object","properties":{"a":{}},"patternProperties":{"^x":{}},"additionalProperties":false,"minProperties":3}"#
        #expect(throws: GrammarCompileError.emptyLanguage) { _ = try Self.compiled(tooFew) }
        // Inside an optional member, such an object makes that member unwritable instead.
        let holder = try Self.compiled(#"{"type":"object","properties":{"t":\#(tooFew),"a":\#(Self.integer)}}"#)
        Self.expectAccepts(holder, #"{"a":1}"#)
        var m = GrammarMatcher(holder)
        #expect(throws: MatcherError.self) { try m.accept(bytes: Array(#"{"t""#.utf8)) }
    }

    /// Exported as a grammar language (declared order), an object with counts is counted as it is
    /// written (a chain over members and counts): exact in that order, reported as rewritten.
    @Test func exportCountsInDeclaredOrder() throws {
        func recognizer(_ schema: String) throws -> ReferenceRecognizer {
            let exported = try JSONSchemaCompiler.compile(text: schema, options: Self.options).exported(as: .gbnf)
            #expect(exported.declaredOrderRules.count == 1)
            return try ReferenceRecognizer(try GBNFParser.parse(exported.text))
        }
        let closed = try recognizer(#"{"type":"object","properties":{"a":\#(Self.integer),"b":\#(Self.integer),"c":\#(Self.integer)},"minProperties":2,"maxProperties":2,"additionalProperties":false}"#)
        for text in [#"{"a":1,"b":1}"#, #"{"a":1,"c":1}"#, #"{"b":1,"c":1}"#] { #expect(closed.accepts(text), "\(text)") }
        for text in ["{}", #"{"a":1}"#, #"{"b":1,"a":1}"#, #"{"a":1,"b":1,"c":1}"#] { #expect(!closed.accepts(text), "\(text)") }
        // One short of the minimum, an undeclared member completes it (counting once).
        let open = try recognizer(#"{"type":"object","properties":{"a":\#(Self.integer)},"minProperties":2,"additionalProperties":{"type":"boolean"}}"#)
        for text in [#"{"a":1,"x":true}"#, #"{"a":1,"x":true,"y":false}"#] { #expect(open.accepts(text), "\(text)") }
        for text in ["{}", #"{"a":1}"#, #"{"x":true,"y":true}"#, #"{"x":true,"a":1}"#] { #expect(!open.accepts(text), "\(text)") }
        // Undeclared members count one by one toward the maximum.
        let bounded = try recognizer(#"{"type":"object","properties":{"a":\#(Self.integer)},"maxProperties":2,"additionalProperties":{"type":"boolean"}}"#)
        for text in ["{}", #"{"a":1,"x":true}"#, #"{"x":true,"y":true}"#] { #expect(bounded.accepts(text), "\(text)") }
        for text in [#"{"a":1,"x":true,"y":true}"#, #"{"x":true,"y":true,"z":true}"#] { #expect(!bounded.accepts(text), "\(text)") }
        // Too many counts for a chain: the members the object must have, in declared order.
        let names = (0..<50).map { "m\($0)" }
        let properties = names.map { "\"\($0)\":{\"type\":\"integer\"}" }.joined(separator: ",")
        let large = try recognizer(#"{"type":"object","properties":{\#(properties)},"minProperties":2,"maxProperties":100}"#)
        #expect(large.accepts(#"{"m0":1,"m1":1}"#))
        for text in [#"{"m0":1}"#, #"{"m0":1,"m2":1}"#, #"{"m0":1,"m1":1,"m2":1}"#] { #expect(!large.accepts(text), "\(text)") }
    }
}
