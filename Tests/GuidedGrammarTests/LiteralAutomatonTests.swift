import Testing
@testable import GuidedGrammar

/// `ByteDFA.literals`: the automaton of a list of strings built from their trie must be the very
/// automaton the expression route builds (same classes, states and numbering), since the lowering's
/// later products and rules are built from it.
@Suite struct LiteralAutomatonTests {
    /// The expression route: an alternation of the literals, subset construction, minimization.
    func viaExpression(_ words: [[UInt8]]) throws -> ByteDFA {
        try ByteDFA(.alt(words.map { .bytes($0) }))
    }

    @Test func equalsTheExpressionRouteOnEdgeCases() throws {
        let cases: [[String]] = [
            [], [""], ["", "a"], ["a"], ["a", "a"], ["ab", "ac"], ["abc", "ab", "a"], ["b", "a", "ba", "ab"],
            ["x\\\"y", "x\\\\", "é", "日本"], ["apiVersion", "kind", "metadata", "spec", "status"],
        ]
        for words in cases {
            let bytes = words.map { Array($0.utf8) }
            #expect(try ByteDFA.literals(bytes) == viaExpression(bytes), "\(words)")
        }
    }

    /// Random lists over a small alphabet (shared prefixes, duplicates, the empty string) and over bytes
    /// 0x00-0xFF, so unused and used classes interleave in every order (byte 0 used or not).
    @Test func equalsTheExpressionRouteOnRandomLists() throws {
        var rng = DifferentialGenerator(seed: 29)
        for round in 0..<300 {
            let wide = round % 2 == 1
            var words: [[UInt8]] = []
            for _ in 0..<Int(rng.next() % 12) {
                let n = Int(rng.next() % 6)
                words.append((0..<n).map { _ in wide ? UInt8(truncatingIfNeeded: rng.next() % 256) : Array("ab\"\\é".utf8)[Int(rng.next() % 6)] })
            }
            #expect(try ByteDFA.literals(words) == viaExpression(words), "round \(round): \(words)")
        }
    }

    /// The state bound is the subset construction's: the trie's nodes are its states.
    @Test func stateLimitMatchesTheSubsetConstruction() throws {
        let words = (0..<40).map { Array("name\($0)".utf8) }
        let nodes = try ByteDFA.literals(words, limits: AutomatonLimits(maxDFAStates: 1_000)).stateCount
        #expect(nodes < 60)
        let trieNodes = 1 + 4 + 10 + 30   // "", "n".."name", their first digit, the second digit of 10-39
        let exact = AutomatonLimits(maxDFAStates: trieNodes), short = AutomatonLimits(maxDFAStates: trieNodes - 1)
        _ = try ByteDFA.literals(words, limits: exact)
        _ = try ByteDFA(.alt(words.map { .bytes($0) }), limits: exact)
        #expect(throws: AutomatonError.tooManyStates(limit: trieNodes - 1)) { try ByteDFA.literals(words, limits: short) }
        #expect(throws: AutomatonError.tooManyStates(limit: trieNodes - 1)) { try ByteDFA(.alt(words.map { .bytes($0) }), limits: short) }
    }
}
