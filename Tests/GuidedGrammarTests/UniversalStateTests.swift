import Testing
@testable import GuidedGrammar

/// The subset construction of a string-content automaton settles a set that holds a universal state (a
/// loop over any character whose end is reached by ε) on that state's closure: the language of every
/// state is the same, the unminimized automaton much smaller.
@Suite struct UniversalStateTests {
    static let patterns = [
        "nightly|beta|devedition|release|esr|unbranded-release", "multi|x86(_64)?|arm-v15", "release", "^(nightly|beta)$",
        "a|^b", "x.*y", "^a", "b$", "release$", "[0-9]{2}", "(ab)+c", "é|\\u00e9x", "", "^$", "a\\.b|c$",
    ]

    func nfa(_ pattern: String, universe: GrammarExpr?) throws -> ByteNFA {
        let e = try RegexLowering.compile(pattern, dialect: .ecma262, encoder: { JSONText.chars($0.ranges) })
        return try ByteNFA(e, grammar: nil, limits: .default, universe: universe)
    }

    @Test(arguments: patterns)
    func theLanguageIsTheSame(_ pattern: String) throws {
        let plain = try ByteDFA.subsetConstruction(nfa(pattern, universe: nil), limit: 100_000).minimized()
        let settled = try ByteDFA.subsetConstruction(nfa(pattern, universe: JSONText.anyChar), limit: 100_000)
        #expect(settled.minimized() == plain)
        let unsettled = try ByteDFA.subsetConstruction(nfa(pattern, universe: nil), limit: 100_000)
        #expect(settled.stateCount <= unsettled.stateCount)
    }

    /// Only a loop from which the end is reached by ε is universal: a pattern's trailing search loop,
    /// not its leading one (after which the match must still come).
    @Test func universalStatesAreTheTrailingSearchLoops() throws {
        let count = { (p: String, u: GrammarExpr?) throws -> Int in try nfa(p, universe: u).universalStates.count }
        #expect(try count("release", JSONText.anyChar) == 1)
        #expect(try count("release$", JSONText.anyChar) == 0)
        #expect(try count("^release$", JSONText.anyChar) == 0)
        #expect(try count("a|b$", JSONText.anyChar) == 1)
        #expect(try count("release", nil) == 0)
    }

    /// After a match, the unsettled construction kept telling apart every partial match in progress.
    @Test func anUnanchoredAlternationStaysSmall() throws {
        let pattern = Self.patterns[0]
        let unsettled = try ByteDFA.subsetConstruction(nfa(pattern, universe: nil), limit: 100_000)
        let settled = try ByteDFA.subsetConstruction(nfa(pattern, universe: JSONText.anyChar), limit: 100_000)
        #expect(unsettled.stateCount == 3_457)
        #expect(settled.stateCount == 87)
        #expect(settled.minimized().stateCount == 54)
    }
}
