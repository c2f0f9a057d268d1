import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `Grammar.prunedToReachable`: the rules no path from the start reaches are removed, and every rule
/// kept is kept whole.
@Suite struct GrammarPruningTests {
    /// Under member sets an object member's location rule is inlined into the member set and left
    /// unreachable, so the grammar is pruned. The member's counted string must keep its
    /// `countedLength`: a pruning that rebuilt the rules attribute by attribute dropped it, and the
    /// string then took any length (`{"s":"abab"}` accepted against `maxLength: 3`).
    @Test func aCountedLengthSurvivesPruning() throws {
        var options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets)
        options.limits.countedLengthsFrom = 0
        let schema = #"{"type":"object","properties":{"s":{"type":"string","pattern":"^[ab]+$","maxLength":3},"n":{"type":"integer"}},"required":["s"]}"#
        let grammar = try JSONSchemaCompiler.compile(text: schema, options: options)
        // The member's location rule was pruned ...
        #expect(!grammar.rules.contains { $0.name == "schema:/properties/s" })
        #expect(grammar.rules.contains { $0.name.hasPrefix("object:") })
        // ... and the rules of its string still count its length.
        let counted = grammar.rules.filter { $0.countedLength != nil }
        #expect(!counted.isEmpty)
        #expect(counted.allSatisfy { $0.countedLength?.maximum == 3 })
    }

    /// Rules reached only through a token budget are kept; a kept rule keeps its number where the
    /// number survives, the kept rules past the new count take the numbers unreachable rules left, and
    /// the references are renumbered; every attribute of a kept rule (name, body, sharing hint, member
    /// guard, distinct items) and the excluded tokens are as they were.
    @Test func keptRulesAreWholeAndRenumbered() {
        var g = Grammar()
        let dead = g.addRule(name: "dead", body: .literal("x"))
        let inBudget = g.addRule(name: "in-budget", body: .literal("b"), shared: true)
        let member = g.addRule(name: "member", body: .literal("m"))
        g.setMemberGuard(member, bit: 3, requires: 5, tracks: true, minimum: 1, countsAsUndeclared: true)
        let items = g.addRule(name: "items", body: .seq([.literal("["), .rule(member), .literal("]")]))
        g.markDistinctStringItems(items, values: [Array("a".utf8)], minimum: 1)
        g.define(g.start, as: .seq([.tokenBudget(.rule(inBudget), maxTokens: 4, then: .rule(items)), .literal("!")]))
        g.excludedTokens = [.text("<|im_start|>")]
        _ = dead
        let p = g.prunedToReachable()
        // `items` (old 4) takes the number `dead` (1) left; `in-budget` and `member` keep 2 and 3.
        #expect(p.rules.map(\.name) == ["root", "items", "in-budget", "member"])
        #expect(p.rules[0].body == .seq([.tokenBudget(.rule(RuleID(2)), maxTokens: 4, then: .rule(RuleID(1))), .literal("!")]))
        #expect(p.rules[1].body == .seq([.literal("["), .rule(RuleID(3)), .literal("]")]))
        for (old, new) in [(inBudget, 2), (member, 3), (items, 1)] {
            var expected = g.rules[old.index]
            expected.body = p.rules[new].body
            #expect(p.rules[new] == expected)
        }
        #expect(p.rules[1].distinctStringItems && p.rules[1].distinctValues == [Array("a".utf8)])
        #expect(p.rules[3].memberBit == 3 && p.rules[3].countsAsUndeclared)
        #expect(p.excludedTokens == g.excludedTokens)
    }

    /// A grammar whose rules are all reachable is returned as it is.
    @Test func aGrammarWithoutUnreachableRulesIsUnchanged() {
        var g = Grammar()
        let a = g.addRule(name: "a", body: .literal("a"))
        g.define(g.start, as: .star(.rule(a)))
        #expect(g.prunedToReachable() == g)
    }

    /// The pruning walk sees every kept body, so it also answers `usesTokens` for the pruned grammar;
    /// any later change to a body or to the excluded tokens asks again.
    @Test func theWalkAnswersUsesTokensUntilTheGrammarChanges() {
        var g = Grammar()
        let a = g.addRule(name: "a", body: .literal("a"))
        _ = g.addRule(name: "dead", body: .token(.text("<|im_end|>")))
        g.define(g.start, as: .seq([.rule(a), .rule(a)]))
        var p = g.prunedToReachable()
        #expect(p.knownTokenFree && !p.usesTokens)
        #expect(p == Grammar(rules: p.rules, excludedTokens: []))   // a cache, not part of equality
        p.define(RuleID(1), as: .seq([.literal("a"), .token(.text("<|im_end|>"))]))
        #expect(!p.knownTokenFree && p.usesTokens)
        var q = g.prunedToReachable()
        _ = q.addRule(name: "t", body: .token(.id(3)))
        #expect(q.usesTokens)
        var r = g.prunedToReachable()
        r.excludedTokens = [.text("<|im_start|>")]
        #expect(r.usesTokens)
        // Reachable tokens, in a budget or named, and excluded tokens are seen by the walk.
        var budget = Grammar()
        budget.define(budget.start, as: .tokenBudget(.literal("x"), maxTokens: 2, then: .empty))
        #expect(!budget.prunedToReachable().knownTokenFree && budget.prunedToReachable().usesTokens)
        var named = Grammar()
        let t = named.addRule(name: "t", body: .token(.id(0)))
        named.define(named.start, as: .rule(t))
        #expect(named.prunedToReachable().usesTokens)
        var excluded = g
        excluded.excludedTokens = [.id(1)]
        #expect(excluded.prunedToReachable().usesTokens)
    }
}
