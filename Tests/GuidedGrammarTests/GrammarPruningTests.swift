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

    /// Rules reached only through a token budget are kept, references into the kept rules are
    /// renumbered, and every attribute of a kept rule (name, body, sharing hint, member guard, distinct
    /// items, excluded tokens) is as it was.
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
        #expect(p.rules.map(\.name) == ["root", "in-budget", "member", "items"])
        #expect(p.rules[0].body == .seq([.tokenBudget(.rule(RuleID(1)), maxTokens: 4, then: .rule(RuleID(3))), .literal("!")]))
        #expect(p.rules[3].body == .seq([.literal("["), .rule(RuleID(2)), .literal("]")]))
        for (old, new) in [(inBudget, 1), (member, 2)] {
            var expected = g.rules[old.index]
            expected.body = p.rules[new].body
            #expect(p.rules[new] == expected)
        }
        var items3 = g.rules[items.index]
        items3.body = p.rules[3].body
        #expect(p.rules[3] == items3)
        #expect(p.rules[3].distinctStringItems && p.rules[3].distinctValues == [Array("a".utf8)])
        #expect(p.rules[2].memberBit == 3 && p.rules[2].countsAsUndeclared)
        #expect(p.excludedTokens == g.excludedTokens)
    }
}
