import Testing
@testable import GuidedGrammar
@testable import GuidedMask
@testable import GuidedTokenizers

/// `TokenMask`, `GrammarMatcher.nextTokenMask()` and `CompiledGrammar.accepts` (docs/api.md, sections
/// 5 and 6).
@Suite struct TokenMaskTests {
    @Test func bitsPastTheWidthAreCleared() {
        let mask = TokenMask(words: [~0, ~0], tokenCount: 40)
        #expect(mask.words == [~0, 0xFF])
        #expect(mask.count == 40)
        #expect(mask.isAllowed(39))
        #expect(!mask.isAllowed(40))
        #expect(!mask.isAllowed(-1))
    }

    @Test func missingWordsAreZero() {
        let mask = TokenMask(words: [1], tokenCount: 70)
        #expect(mask.words == [1, 0, 0])
        #expect(Array(mask.allowedTokens) == [0])
    }

    @Test func allowedTokensInIncreasingOrder() {
        let ids = [0, 5, 31, 32, 63, 64, 99]
        let mask = TokenMask(allowing: [99, 0, 64, 31, 5, 63, 32, 100, -3], tokenCount: 100)
        #expect(Array(mask.allowedTokens) == ids)
        #expect(mask.count == ids.count)
        #expect((0..<100).filter(mask.isAllowed) == ids)
        #expect(!mask.isEmpty)
        #expect(TokenMask(allowing: [], tokenCount: 100).isEmpty)
        #expect(Array(TokenMask(allowing: [], tokenCount: 0).allowedTokens).isEmpty)
    }

    /// Tokens a, b, ab, end (3); the logits are 40 wide.
    static func compiled(_ pattern: String) throws -> CompiledGrammar {
        let vocabulary = TokenVocabulary(tokens: [Array("a".utf8), Array("b".utf8), Array("ab".utf8), Array("</s>".utf8)],
                                         specialTokenIDs: [3], eosTokenIDs: [3], size: 40)
        return try CompiledGrammar(Grammar(regex: pattern), vocabulary: VocabularyIndex(vocabulary))
    }

    @Test func nextTokenMaskIsTheFilledMask() throws {
        var matcher = GrammarMatcher(try Self.compiled("(ab)+"))
        var filled: [UInt32] = []
        for (token, expected) in [(0, [0, 2]), (1, [1]), (2, [0, 2, 3])] as [(Int, [Int])] {
            let mask = try matcher.nextTokenMask()
            try matcher.fillNextTokenMask(into: &filled)
            #expect(mask.words == filled)
            #expect(mask.tokenCount == 40)
            #expect(Array(mask.allowedTokens) == expected)
            try matcher.accept(token: token)
        }
    }

    @Test func compiledGrammarAccepts() throws {
        let compiled = try Self.compiled("(ab)+")
        #expect(try compiled.accepts(text: "abab"))
        #expect(try !compiled.accepts(text: "aba"))
        #expect(try !compiled.accepts(text: "abc"))
        #expect(try !compiled.accepts(text: ""))
        #expect(try compiled.accepts(bytes: Array("ab".utf8)))
        #expect(try Self.compiled("(ab)*").accepts(text: ""))
    }
}
