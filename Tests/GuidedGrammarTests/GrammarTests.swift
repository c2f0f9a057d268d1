import Testing
@testable import GuidedGrammar

@Suite struct GrammarIRTests {
    @Test func byteSetOperations() {
        let digits = ByteSet(range: 0x30...0x39)
        #expect(digits.count == 10)
        #expect(digits.contains(0x35) && !digits.contains(0x2F))
        #expect(digits.complement().count == 246)
        #expect(digits.union(ByteSet([0x2D])).members == [0x2D] + Array(0x30...0x39))
        #expect(digits.intersection(ByteSet([0x30, 0x41])).members == [0x30])
        #expect(ByteSet.all.count == 256 && ByteSet().isEmpty)
    }

    @Test func recursiveRulesThroughDeclare() {
        var g = Grammar(startName: "root")
        let value = g.declareRule(name: "value")
        g.define(g.start, as: .rule(value))
        g.define(value, as: .choice([.literal("x"), .sequence([.literal("["), .rule(value), .literal("]")])]))
        #expect(g.rules.count == 2)
        #expect(g[value].name == "value")
        #expect(g.startRule.body == .rule(value))
    }
}
