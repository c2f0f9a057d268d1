import Testing
import GuidedGrammar
import GuidedTokenizers
@testable import GuidedMask

/// In member sets, a member's rule carries its bit and calls one rule per distinct value (`: value`), so
/// members of the same type are read by the same automaton states: the mask cached inside the first
/// such member's value serves every other one, where each member used to have its own copy of the colon,
/// the quotes and the text, and its first visit made and walked all of them again.
@Suite struct MemberValuesSharedTests {
    /// Two plain strings, two strings of at most 256 characters (a value ending in a call of the bounded
    /// string's rule, which a group of tail references once took in), an integer; closed, `b` required.
    static let schema = #"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"s":{"type":"string","maxLength":256},"t":{"type":"string","maxLength":256},"n":{"type":"integer"}},"required":["b"],"additionalProperties":false}"#
    static let tokens = ["{", "}", "\"", ":", ",", " ", "a", "b", "s", "t", "n", "x", "1"]

    static func compiled() throws -> (Grammar, CompiledGrammar) {
        let grammar = try JSONSchemaCompiler.compile(text: schema, options: JSONSchemaCompileOptions(propertyOrder: .memberSets))
        return (grammar, try MaskTestSupport.compiled(grammar, MaskTestSupport.vocabulary(tokens)))
    }

    /// The top states of the configuration after `text`.
    static func tops(_ c: CompiledGrammar, after text: String) throws -> Set<Int32> {
        var m = GrammarMatcher(c)
        try m.accept(bytes: Array(text.utf8))
        let cp = m.current
        return Set((Int(cp.setStart)..<Int(cp.setEnd)).map { m.engine.nodes[Int(m.sets[$0])].state })
    }

    @Test func oneValueRulePerDistinctValue() throws {
        let (g, _) = try Self.compiled()
        let values = g.rules.indices.filter { g.rules[$0].name == "member-value" }
        #expect(values.count == 3)
        func callee(_ name: String) -> Int? {
            guard let r = g.rules.first(where: { $0.name.hasSuffix("/" + name) && $0.memberBit >= 0 }),
                  case .rule(let v) = r.body else { return nil }
            return v.index
        }
        #expect(callee("a") != nil && callee("a") == callee("b"))
        #expect(callee("s") != nil && callee("s") == callee("t"))
        #expect(callee("n") != nil && callee("n") != callee("a") && callee("n") != callee("s"))
        #expect(Set([callee("a"), callee("s"), callee("n")].compactMap { $0 }) == Set(values))
        // Each stays a rule, also the one whose value ends in a call of the bounded string's rule (only
        // ever referred to in tail position, as `RuleSelection`'s tail groups take in otherwise).
        let selection = try RuleSelection(grammar: g)
        #expect(values.allSatisfy { selection.keptIndex[$0] >= 0 })
    }

    @Test(arguments: [
        (#"{"a": "x"#, #"{"b": "x"#),
        (#"{"a": "x"#, #"{"b": "xx", "a": "x"#),
        (#"{"a": "#, #"{"b": "#),
        (#"{"s": "x"#, #"{"t": "x"#),
        (#"{"s": "x"#, #"{"b": "x", "t": "x"#),
    ])
    func membersOfOneValueShareTheirStates(_ first: String, _ second: String) throws {
        let (_, c) = try Self.compiled()
        let one = try Self.tops(c, after: first), other = try Self.tops(c, after: second)
        #expect(one.count == 1)
        #expect(one == other, "\(first) and \(second)")
    }

    /// Sharing the value keeps each member's own bit: written once, required where required, typed.
    @Test func membersKeepTheirBits() throws {
        let (_, c) = try Self.compiled()
        for text in [#"{"b": "x"}"#, #"{"a": "x", "b": "x"}"#, #"{"b": "x", "a": "x", "n": 1, "t": "x", "s": "x"}"#] {
            #expect(MaskTestSupport.accepts(c, text), "\(text)")
        }
        for text in ["{}", #"{"a": "x"}"#, #"{"b": "x", "b": "x"}"#, #"{"a": "x", "b": "x", "a": "x"}"#,
                     #"{"b": 1}"#, #"{"b": "x", "n": "x"}"#, #"{"b": "x", "x": "x"}"#] {
            #expect(!MaskTestSupport.accepts(c, text), "\(text)")
        }
        // After `a` and `b`, neither name can start again: only the other members' first letters.
        #expect(try MaskTestSupport.allowed(c, after: #"{"a": "x", "b": "x", ""#, tokens: Self.tokens) == ["s", "t", "n"])
        #expect(try MaskTestSupport.allowed(c, after: #"{"a": "x""#, tokens: Self.tokens) == [",", " "])
        #expect(try MaskTestSupport.allowed(c, after: #"{"b": "x""#, tokens: Self.tokens) == ["}", ",", " "])
    }
}
