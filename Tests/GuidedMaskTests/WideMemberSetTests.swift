import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

private typealias S = MaskTestSupport

/// Member-set objects of more than 64 members: the members past the automaton state's first word
/// (`MemberBitsBeyond`) are written, refused again and required exactly like the first 64. Before,
/// such objects fell back to declared order, and `{"m129":1,"m001":1}` was rejected.
@Suite struct WideMemberSetTests {
    static let options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets)
    static let names = (0..<130).map { "m" + String("00\($0)".suffix(3)) }

    /// 130 integer members, m001, m070 and m129 required, other members booleans.
    static let schema: String = {
        let properties = names.map { "\"\($0)\":{\"type\":\"integer\"}" }.joined(separator: ",")
        return #"{"type":"object","properties":{"# + properties
            + #"},"required":["m001","m070","m129"],"additionalProperties":{"type":"boolean"}}"#
    }()
    static let keys = ["m001", "m064", "m070", "m129", "x"]
    static let tokens = ["{", "}", ",", ":", "1", "true"] + keys.map { "\"\($0)\"" } + [#""m070":1"#, #""m129":1}"#]

    static func compiled(_ schema: String) throws -> CompiledGrammar {
        try S.compiled(try JSONSchemaCompiler.compile(text: schema, options: options), S.vocabulary(tokens))
    }

    @Test func oneMemberSetRuleWithBitsPastTheFirstWord() throws {
        let g = try JSONSchemaCompiler.compile(text: Self.schema, options: Self.options)
        #expect(g.rules.filter(\.tracksMembers).count == 1)
        #expect(g.rules.map(\.memberBit).max() == 129)
        let close = try #require(g.rules.first { !$0.requiresMembersBeyond.isEmpty })
        #expect(close.requiresMembers == 1 << 1)
        #expect(close.requiresMembersBeyond == [70, 129])
    }

    /// Every key sequence over {m001, m064, m070, m129, x} up to length 5, x at most once (2,958
    /// objects): accepted exactly when no declared key repeats and m001, m070 and m129 are all present,
    /// in any order.
    @Test func exhaustiveKeySequences() throws {
        let c = try Self.compiled(Self.schema)
        let (checked, accepted) = Self.checkKeySequences(c, Self.keys) {
            Set($0).count == $0.count && $0.contains("m001") && $0.contains("m070") && $0.contains("m129")
        }
        #expect(checked == 2_958)
        #expect(accepted == 174)
    }

    /// Every key sequence over `keys` up to length 5, x at most once, each declared key with `1` and x
    /// with `true`: accepted exactly when `valid` says. Returns how many were checked and valid.
    static func checkKeySequences(_ c: CompiledGrammar, _ keys: [String], valid: ([String]) -> Bool) -> (Int, Int) {
        var checked = 0, accepted = 0
        for s in S.keySequences(keys, upTo: 5) where s.filter({ $0 == "x" }).count <= 1 {
            let expected = valid(s)
            let text = "{" + s.map { "\"\($0)\":" + ($0 == "x" ? "true" : "1") }.joined(separator: ",") + "}"
            #expect(S.accepts(c, text) == expected, "\(text) should be \(expected ? "accepted" : "rejected")")
            checked += 1
            if expected { accepted += 1 }
        }
        return (checked, accepted)
    }

    /// Exact masks: a member past the first word is not offered once written, and `}` waits for the
    /// required ones on both sides of it.
    @Test func masksFollowTheMembersWritten() throws {
        let c = try Self.compiled(Self.schema)
        func allowed(_ text: String) throws -> [String] { try S.allowed(c, after: text, tokens: Self.tokens) }
        #expect(try allowed("{") == [#""m001""#, #""m064""#, #""m070""#, #""m129""#, #""x""#, #""m070":1"#])
        #expect(try allowed(#"{"m129":1,"#) == [#""m001""#, #""m064""#, #""m070""#, #""x""#, #""m070":1"#])
        #expect(try allowed(#"{"m129":1,"m070":1,"#) == [#""m001""#, #""m064""#, #""x""#])
        #expect(try allowed(#"{"m129":1,"m070":1"#) == [",", "1"])
        #expect(try allowed(#"{"m001":1,"m129":1"#) == [",", "1"])
        #expect(try allowed(#"{"m001":1,"m129":1,"m070":1"#) == ["}", ",", "1"])
        #expect(try allowed(#"{"m001":1,"m070":1,"#) == [#""m064""#, #""m129""#, #""x""#, #""m129":1}"#])
    }

    /// Dependencies beside more than 64 members: the members they name take the first word's bits
    /// (m129 needs m000 and m128; m064 needs m129), the others follow, and the closing `}` checks them.
    /// Every key sequence over {m000, m064, m128, m129, x} up to length 5, x at most once.
    @Test func dependenciesBesideMoreThan64Members() throws {
        let schema = String(Self.schema.dropLast()).replacingOccurrences(of: #""required":["m001","m070","m129"],"#, with: "")
            + #","dependentRequired":{"m129":["m000","m128"],"m064":["m129"]}}"#
        let g = try JSONSchemaCompiler.compile(text: schema, options: Self.options)
        let bits = Dictionary(uniqueKeysWithValues: g.rules.filter { $0.memberBit >= 0 }.map { ($0.name.split(separator: "/").last.map(String.init) ?? "", $0.memberBit) })
        #expect(bits["m129"] == 0 && bits["m000"] == 1 && bits["m128"] == 2 && bits["m064"] == 3 && bits["m001"] == 4)
        let keys = ["m000", "m064", "m128", "m129", "x"]
        let tokens = ["{", "}"] + keys.map { "\"\($0)\"" }
        let c = try S.compiled(g, S.vocabulary(tokens))
        let (checked, accepted) = Self.checkKeySequences(c, keys) { s in
            let has = Set(s)
            return has.count == s.count && (!has.contains("m129") || (has.contains("m000") && has.contains("m128")))
                && (!has.contains("m064") || has.contains("m129"))
        }
        #expect(checked == 2_958)
        #expect(accepted == 190)
        #expect(try S.allowed(c, after: #"{"m064":1,"m129":1,"m000":1,"#, tokens: tokens) == [#""m128""#, #""x""#])
    }

    /// A closed object of 66 required members written in reverse order: after 65 only the missing
    /// one's name is offered, after all 66 only the `}`.
    @Test func closedObjectWrittenBackwards() throws {
        let names = Array(Self.names.prefix(66))
        let quoted = names.map { "\"\($0)\"" }
        let schema = #"{"type":"object","properties":{"# + names.map { "\"\($0)\":{\"const\":1}" }.joined(separator: ",")
            + #"},"required":["# + quoted.joined(separator: ",") + #"],"additionalProperties":false}"#
        let tokens = ["{", "}", ",", ":", "1"] + quoted
        let c = try S.compiled(try JSONSchemaCompiler.compile(text: schema, options: Self.options), S.vocabulary(tokens))
        let backwards = names.reversed().map { "\"\($0)\":1" }
        for missing in [0, 63, 64, 65] {
            let written = backwards.filter { $0 != "\"\(names[missing])\":1" }
            #expect(try S.allowed(c, after: "{" + written.joined(separator: ",") + ",", tokens: tokens) == [quoted[missing]])
            #expect(try S.allowed(c, after: "{" + written.joined(separator: ","), tokens: tokens) == [","])
        }
        #expect(try S.allowed(c, after: "{" + backwards.joined(separator: ","), tokens: tokens) == ["}"])
        #expect(S.accepts(c, "{" + backwards.joined(separator: ",") + "}"))
        #expect(!S.accepts(c, "{" + backwards.joined(separator: ",") + #","m065":1}"#))
    }
}
