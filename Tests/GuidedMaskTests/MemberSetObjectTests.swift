import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

private typealias S = MaskTestSupport

/// `PropertyOrder.memberSets`: an object is one rule whose member calls carry member bits, and the mask
/// engine's automaton remembers which members were written. Checked through the matcher (the reference
/// recognizer refuses such grammars).
@Suite struct MemberSetObjectTests {
    static let options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets)
    static let schema = #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"}},"required":["c","a"],"additionalProperties":{"type":"boolean"}}"#
    static let tokens = ["{", "}", #""a""#, #""b""#, #""c""#, #""x""#, ":", "1", ",", "true", #""a":1"#, "1}"]

    static func compiled(_ schema: String = Self.schema) throws -> CompiledGrammar {
        try S.compiled(try JSONSchemaCompiler.compile(text: schema, options: options), S.vocabulary(tokens))
    }

    static func accepts(_ c: CompiledGrammar, _ text: String) -> Bool { S.accepts(c, text) }

    /// Exact masks: a member already written is not offered again, the closing brace only once the
    /// required members are in, and a token that would close too early is refused.
    @Test func masksFollowTheMembersWritten() throws {
        let c = try Self.compiled()
        func allowed(after text: String) throws -> [String] {
            var m = GrammarMatcher(c)
            try m.accept(bytes: Array(text.utf8))
            return try S.allowed(&m).map { $0 < Self.tokens.count ? Self.tokens[$0] : "</s>" }
        }
        #expect(try allowed(after: "{") == [#""a""#, #""b""#, #""c""#, #""x""#, #""a":1"#])
        #expect(try allowed(after: #"{"a":1"#) == ["1", ","])
        #expect(try allowed(after: #"{"a":1,"#) == [#""b""#, #""c""#, #""x""#])
        #expect(try allowed(after: #"{"a":1,"c":"#) == ["1", "1}"])
        #expect(try allowed(after: #"{"a":1,"c":1"#) == ["}", "1", ",", "1}"])
        #expect(try allowed(after: #"{"a":1,"c":1}"#) == ["</s>"])
        #expect(try allowed(after: #"{"c":1,"b":1,"a":1,"#) == [#""x""#])
    }

    /// Every key sequence over {a, b, c, x} up to length 5 with x at most once (911 objects): accepted
    /// exactly when no declared key repeats and a and c are present, in any order.
    @Test func exhaustiveKeySequences() throws {
        let c = try Self.compiled()
        let keys = ["a", "b", "c", "x"]
        let sequences = S.keySequences(keys, upTo: 5)
        var checked = 0
        for s in sequences where s.filter({ $0 == "x" }).count <= 1 {
            let valid = Set(s).count == s.count && s.contains("a") && s.contains("c")
            let text = "{" + s.map { "\"\($0)\":" + ($0 == "x" ? "true" : "1") }.joined(separator: ",") + "}"
            #expect(Self.accepts(c, text) == valid, "\(text) should be \(valid ? "accepted" : "rejected")")
            checked += 1
        }
        #expect(checked == 911)
    }

    /// Alternatives that are objects are one member-set rule (one key position, one stack), each name with
    /// one bit in all of them: every key sequence over {a, b, c, x} up to length 5 (x at most once) is
    /// accepted exactly when no key repeats and it fits one alternative: a without c, or c without a
    /// (the other's name is undeclared there, and its integer is no boolean).
    @Test func alternativesAreOneMemberSet() throws {
        let schema = #"{"anyOf":[{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a"],"additionalProperties":{"type":"boolean"}},{"type":"object","properties":{"b":{"type":"integer"},"c":{"type":"integer"}},"required":["c"],"additionalProperties":{"type":"boolean"}}]}"#
        let g = try JSONSchemaCompiler.compile(text: schema, options: Self.options)
        #expect(g.rules.filter(\.tracksMembers).count == 1)
        let c = try Self.compiled(schema)
        var checked = 0
        for s in S.keySequences(["a", "b", "c", "x"], upTo: 5) where s.filter({ $0 == "x" }).count <= 1 {
            let valid = Set(s).count == s.count && s.contains("a") != s.contains("c")
            let text = "{" + s.map { "\"\($0)\":" + ($0 == "x" ? "true" : "1") }.joined(separator: ",") + "}"
            #expect(Self.accepts(c, text) == valid, "\(text) should be \(valid ? "accepted" : "rejected")")
            checked += 1
        }
        #expect(checked == 911)
        var m = GrammarMatcher(c)
        try m.accept(bytes: Array(#"{"b":1,"#.utf8))
        #expect(try S.allowed(&m).map { Self.tokens[$0] } == [#""a""#, #""c""#, #""x""#, #""a":1"#])
    }

    /// Tools whose `arguments` have equal members (each location its own schema rule around the same
    /// string, number and enum) share one member-set rule for them, and any member order is accepted.
    @Test func equalMembersShareOneRule() throws {
        let tool = { (n: Int) in #"{"type":"object","properties":{"name":{"const":"t\#(n)"},"arguments":{"type":"object","properties":{"q":{"type":"string","maxLength":5},"n":{"type":"integer","minimum":1,"maximum":9},"m":{"enum":["x","y"]}},"required":["q"],"additionalProperties":false}},"required":["name","arguments"],"additionalProperties":false}"# }
        let schema = #"{"anyOf":["# + (0..<3).map(tool).joined(separator: ",") + "]}"
        let g = try JSONSchemaCompiler.compile(text: schema, options: Self.options)
        #expect(g.rules.filter(\.tracksMembers).count == 2)
        let c = try S.compiled(g, S.vocabulary(["{", "}"]))
        for text in [#"{"name":"t1","arguments":{"q":"ab"}}"#, #"{"arguments":{"m":"y","n":3,"q":""},"name":"t2"}"#] {
            #expect(Self.accepts(c, text), "\(text)")
        }
        for text in [#"{"name":"t3","arguments":{"q":"ab"}}"#, #"{"arguments":{"n":3},"name":"t0"}"#, #"{"name":"t0","arguments":{"q":"abcdef"}}"#] {
            #expect(!Self.accepts(c, text), "\(text)")
        }
    }

    /// An object that admits no undeclared member: once every member is written no `,` is offered, a
    /// written member's name is not offered again, and every key sequence over {a, b, c} up to length 4
    /// is accepted exactly when its keys are distinct, declared (a, b) and include the required a.
    @Test func closedObjects() throws {
        let schema = #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a"],"additionalProperties":false}"#
        let g = try JSONSchemaCompiler.compile(text: schema, options: Self.options)
        #expect(g.rules.filter(\.tracksMembers).count == 1)
        let c = try Self.compiled(schema)
        func allowed(after text: String) throws -> [String] {
            var m = GrammarMatcher(c)
            try m.accept(bytes: Array(text.utf8))
            return try S.allowed(&m).map { $0 < Self.tokens.count ? Self.tokens[$0] : "</s>" }
        }
        #expect(try allowed(after: "{") == [#""a""#, #""b""#, #""a":1"#])
        #expect(try allowed(after: #"{"b":1"#) == ["1", ","])
        #expect(try allowed(after: #"{"b":1,"#) == [#""a""#, #""a":1"#])
        #expect(try allowed(after: #"{"b":1,"a":1"#) == ["}", "1", "1}"])
        var checked = 0
        for s in S.keySequences(["a", "b", "c"], upTo: 4) {
            let valid = Set(s).count == s.count && !s.contains("c") && s.contains("a")
            let text = "{" + s.map { "\"\($0)\":1" }.joined(separator: ",") + "}"
            #expect(Self.accepts(c, text) == valid, "\(text) should be \(valid ? "accepted" : "rejected")")
            checked += 1
        }
        #expect(checked == 121)
    }

    /// After a member, a whitespace run longer than the inline bound (4) fits only before `}`: not
    /// offered while a required member is missing (it would lead nowhere); a short one still is
    /// (before `,`).
    @Test func noWhitespaceIntoAClosingThatCannotCome() throws {
        let options = JSONSchemaCompileOptions(propertyOrder: .memberSets)
        let tokens = ["{", "}", #""a""#, #""b""#, ":", "1", ",", "\n", "\n\n\n\n\n"]
        let g = try JSONSchemaCompiler.compile(text: Self.schema.replacingOccurrences(of: #""c","a""#, with: #""a""#), options: options)
        let c = try S.compiled(g, S.vocabulary(tokens))
        func allowed(after text: String) throws -> [String] {
            var m = GrammarMatcher(c)
            try m.accept(bytes: Array(text.utf8))
            return try S.allowed(&m).map { $0 < tokens.count ? tokens[$0] : "</s>" }
        }
        #expect(try allowed(after: #"{"b":1"#) == ["1", ",", "\n"])
        #expect(try allowed(after: #"{"a":1"#) == ["}", "1", ",", "\n", "\n\n\n\n\n"])
    }

    /// A required member whose value derives nothing (two undeclared names needed for `minProperties`,
    /// a documented departure) empties its object in member sets as in declared order: the mask compiler
    /// refuses the grammar instead of allowing prefixes that can never close. Optional, the member is
    /// simply never offered.
    @Test func requiredMemberWithEmptyValue() throws {
        let empty = #"{"type":"object","minProperties":2,"patternProperties":{"^a":{}},"additionalProperties":false}"#
        let required = #"{"type":"object","properties":{"t":\#(empty),"b":{"type":"integer"}},"required":["t"]}"#
        for order in [JSONSchemaCompileOptions.PropertyOrder.memberSets, .declared] {
            let g = try JSONSchemaCompiler.compile(text: required, options: JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: order))
            do {
                _ = try S.compiled(g, S.vocabulary(Self.tokens))
                Issue.record("\(order): an object that can never close compiled")
            } catch let error as GrammarCompileError {
                guard case .emptyLanguage = error else { Issue.record("\(order): \(error)"); continue }
            }
        }
        let c = try Self.compiled(required.replacingOccurrences(of: #","required":["t"]"#, with: ""))
        #expect(Self.accepts(c, "{}"))
        #expect(Self.accepts(c, #"{"b":1,"x":true}"#))
        var m = GrammarMatcher(c)
        #expect(throws: MatcherError.self) { try m.accept(bytes: Array(#"{"t""#.utf8)) }
    }

    /// Nested objects keep their own sets; an undeclared name never takes a declared one.
    @Test func nestedObjectsAndNames() throws {
        let schema = #"{"type":"object","properties":{"p":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]},"a":{"type":"integer"}},"required":["p"]}"#
        let c = try Self.compiled(schema)
        for text in [#"{"p":{"a":1}}"#, #"{"a":2,"p":{"a":1}}"#, #"{"p":{"z":true,"a":1},"a":2}"#, #"{"p":{"a":1},"a":1,"q":null}"#] {
            #expect(Self.accepts(c, text), "\(text)")
        }
        for text in [#"{"p":{"a":1},"p":{"a":1}}"#, #"{"p":{}}"#, #"{"p":{"a":1,"a":2}}"#, #"{"a":1,"p":{"a":1},"a":2}"#, #"{"a":1}"#] {
            #expect(!Self.accepts(c, text), "\(text)")
        }
    }

    /// What member sets do not track falls back: counts to `.anyOrder(maxMembers: 8)`,
    /// and the reference recognizer refuses the member-set grammar.
    @Test func fallbacksAndRecognizer() throws {
        let counted = try Self.compiled(#"{"type":"object","properties":{"a":{},"b":{}},"maxProperties":1}"#)
        #expect(Self.accepts(counted, #"{"b":1}"#))
        #expect(!Self.accepts(counted, #"{"b":1,"a":2}"#))
        let g = try JSONSchemaCompiler.compile(text: Self.schema, options: Self.options)
        do {
            _ = try ReferenceRecognizer(g)
            Issue.record("the reference recognizer accepted a member-set grammar")
        } catch {
            guard case .memberSets = error else { Issue.record("\(error)"); return }
        }
    }
}
