import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// `GrammarRule.shared`: a rule stays one called rule, with the same language and the same masks as
/// its inlined copies.
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
        // Even when referenced once.
        var once = Grammar()
        let k = once.addRule(name: "k", body: .literal("ab"), shared: true)
        once.define(once.start, as: .sequence([.literal("["), .rule(k), .literal("]")]))
        #expect(try S.compiled(once, vocab).keptRules == ["root", "k"])
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

    /// Every position of a JSON object may lead to its undeclared member: it is shared, also when a
    /// required member leaves a single reference to it.
    @Test func undeclaredMemberOfAnObjectIsShared() throws {
        for schema in [#"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}}}"#,
                       #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}},"required":["a"]}"#] {
            let g = try JSONSchemaCompiler.compile(text: schema)
            let kept = try S.compiled(g, S.vocabulary(["{"])).keptRules
            #expect(kept.contains("undeclared:"), "\(schema)")
        }
    }
}

/// A sequence that ends in a rule shared in tail position (`RuleSelection.tailShared`: a name trie's
/// "any other character, then anything" branch at every node) ends its other parts at the shared copy's
/// entry itself, not at a state that only passes on to it by ε.
@Suite struct SharedTailEntryTests {
    typealias S = MaskTestSupport

    /// root ::= "a" t | "b" t | "c" t ; t ::= "x"*
    static var grammar: Grammar {
        var g = Grammar()
        let t = g.addRule(name: "t", body: .star(.literal("x")))
        g.define(g.start, as: .choice(["a", "b", "c"].map { .sequence([.literal($0), .rule(t)]) }))
        return g
    }

    @Test func noPassThroughStateBeforeTheSharedCopy() throws {
        let c = try S.compiled(Self.grammar, S.vocabulary(["a", "b", "c", "x", "ax", "xx"]))
        #expect(c.keptRules == ["root"])
        // Start and final; the copy's entry; one state per further edge out of the start (b, c); the
        // copy's loop and the state after its "x". With a pass-through state per alternative: 10.
        #expect(c.nfaStateCount == 7)
    }

    @Test func theLanguageIsUnchanged() throws {
        let tokens = ["a", "b", "c", "x", "ax", "xx"]
        let c = try S.compiled(Self.grammar, S.vocabulary(tokens))
        for text in ["a", "b", "c", "ax", "bxx", "cxxx"] { #expect(S.accepts(c, text), "\(text)") }
        for text in ["", "x", "ab", "axa", "xa"] { #expect(!S.accepts(c, text), "\(text)") }
        #expect(try S.allowed(c, after: "", tokens: tokens) == ["a", "b", "c", "ax"])
        #expect(try S.allowed(c, after: "b", tokens: tokens) == ["x", "xx", "</s>"])
    }
}
