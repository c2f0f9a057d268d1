import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// `GrammarRule.shared`: a rule referenced from several places stays one called rule, with the same
/// language and the same masks as its inlined copies.
@Suite struct SharedRuleTests {
    typealias S = MaskTestSupport

    static func grammar(shared: Bool) -> Grammar {
        var g = Grammar()
        let k = g.addRule(name: "k", body: .choice([.literal("ab"), .literal("cd")]), shared: shared)
        g.define(g.start, as: .sequence([.literal("["), .rule(k), .repeat(.sequence([.literal(","), .rule(k)]), min: 0, max: nil), .literal("]")]))
        return g
    }

    @Test func hintKeepsTheRuleCalled() throws {
        let vocab = S.vocabulary(["["])
        #expect(try S.compiled(Self.grammar(shared: false), vocab).keptRules == ["root"])
        #expect(try S.compiled(Self.grammar(shared: true), vocab).keptRules == ["root", "k"])
    }

    @Test func sharedAndInlinedGiveTheSameMasks() throws {
        //                          0    1     2     3      4     5     6      7     8
        let vocab = S.vocabulary(["[", "ab", "cd", "ab,", "a", "b]", "]", ",cd", "cd]"])
        var masks: [[[Int]]] = []
        for shared in [false, true] {
            var m = GrammarMatcher(try S.compiled(Self.grammar(shared: shared), vocab))
            var seen: [[Int]] = []
            for token in [0, 3, 4, 5] {
                seen.append(try S.allowed(&m))
                try m.accept(token: token)
            }
            seen.append(try S.allowed(&m))
            masks.append(seen)
        }
        #expect(masks[0] == [[0], [1, 2, 3, 4, 8], [1, 2, 3, 4, 8], [5], [9]])
        #expect(masks[1] == masks[0])
    }

    /// The undeclared member of a JSON object is written at every position of the object: it is shared.
    @Test func undeclaredMemberOfAnObjectIsShared() throws {
        let g = try JSONSchemaCompiler.compile(text: #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}}}"#)
        let kept = try S.compiled(g, S.vocabulary(["{"])).keptRules
        #expect(kept.contains("undeclared:"))
    }
}
