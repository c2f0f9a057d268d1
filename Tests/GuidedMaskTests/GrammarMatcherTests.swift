import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

@Suite struct GrammarMatcherTests {
    typealias S = MaskTestSupport

    // ids:                 0    1     2      3    4      5     6      7     8       9 (</s>)
    static let tokens = ["a", "b", "ab", "aab", "(", ")", "()", "((", "ba", "\u{00E9}"]

    @Test func literalAlternativesExactMasks() throws {
        let vocab = S.vocabulary(["a", "b", "ab", "abc", "c", "x"])
        let g = try S.compiled(gbnf: #"root ::= "ab" | "abc""#, vocab)
        var m = GrammarMatcher(g)
        #expect(try S.allowed(&m) == [0, 2, 3])
        try m.accept(token: 0)
        #expect(try S.allowed(&m) == [1])
        try m.accept(token: 1)
        #expect(m.canTerminate)
        #expect(try S.allowed(&m) == [4, 6])   // "c" or EOS
        try m.accept(token: 6)
        #expect(m.isTerminated)
        #expect(try S.allowed(&m) == [6])
    }

    @Test func recursionBalancedParentheses() throws {
        let vocab = S.vocabulary(["(", ")", "()", "((", "))", ")(", "x"])
        let g = try S.compiled(gbnf: #"root ::= "(" root ")" root | """#, vocab)
        var m = GrammarMatcher(g)
        #expect(try S.allowed(&m) == [0, 2, 3, 7])
        try m.accept(token: 3)   // "(("
        #expect(try S.allowed(&m) == [0, 1, 2, 3, 4, 5])
        try m.accept(token: 4)   // "))"
        #expect(try S.allowed(&m) == [0, 2, 3, 7])
        #expect(m.canTerminate)
        try m.rollback(1)
        #expect(!m.canTerminate)
        #expect(try S.allowed(&m) == [0, 1, 2, 3, 4, 5])
    }

    @Test func rejectedTokenLeavesMatcherUnchanged() throws {
        let vocab = S.vocabulary(["a", "b"])
        let g = try S.compiled(gbnf: #"root ::= "ab""#, vocab)
        var m = GrammarMatcher(g)
        #expect(throws: MatcherError.tokenRejected(token: 1, position: 0)) { try m.accept(token: 1) }
        #expect(throws: MatcherError.tokenRejected(token: 2, position: 0)) { try m.accept(token: 2) }  // EOS too early
        #expect(throws: MatcherError.tokenRejected(token: 7, position: 0)) { try m.accept(token: 7) }  // past the vocabulary
        #expect(m.error == nil)
        try m.accept(token: 0)
        #expect(throws: MatcherError.bytesRejected(offset: 1, position: 2)) { try m.accept(bytes: Array("bb".utf8)) }
        try m.accept(bytes: Array("b".utf8))
        #expect(m.canTerminate)
    }

    @Test func paddingAndSpecialTokensNeverAllowed() throws {
        let vocab = TokenVocabulary(tokens: [Array("a".utf8), Array("<s>".utf8), Array("</s>".utf8), Array("a".utf8)],
                                    specialTokenIDs: [1, 2], eosTokenIDs: [2], size: 40)
        let g = try S.compiled(gbnf: #"root ::= "a"* "<s>""#, vocab)
        var m = GrammarMatcher(g)
        // "<s>" as text is not the special token 1; token 3 duplicates "a".
        #expect(try S.allowed(&m) == [0, 3])
        #expect(throws: MatcherError.tokenRejected(token: 1, position: 0)) { try m.accept(token: 1) }
        try m.accept(bytes: Array("<s>".utf8))
        #expect(try S.allowed(&m) == [2])
        #expect(m.maskWordCount == 2)
    }

    @Test func incompleteUTF8Tokens() throws {
        // "é" is C3 A9; tokens split it.
        let vocab = TokenVocabulary(tokens: [[0xC3], [0xA9], [0xC3, 0xA9], Array("x".utf8), [0xA9, 0x78]], specialTokenIDs: [], eosTokenIDs: [])
        let g = try S.compiled(gbnf: #"root ::= [^a-z]* "x""#, vocab)
        var m = GrammarMatcher(g)
        #expect(try S.allowed(&m) == [0, 2, 3])
        try m.accept(token: 0)
        #expect(try S.allowed(&m) == [1, 4])
        try m.accept(token: 4)
        #expect(m.canTerminate)
        #expect(try S.allowed(&m) == [])
    }

    @Test func forkIsIndependent() throws {
        let vocab = S.vocabulary(["a", "b"])
        let g = try S.compiled(gbnf: #"root ::= ("a" | "b")* "b""#, vocab)
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        var f = m.fork()
        try f.accept(token: 1)
        #expect(f.canTerminate)
        #expect(!m.canTerminate)
        m.reset()
        #expect(m.rollbackAvailable == 0)
        #expect(f.rollbackAvailable == 2)
    }

    @Test func forcedBytesAndTokens() throws {
        let vocab = S.vocabulary(["{", "\"", "\"name", "\":", ":", " ", "x", "\"na"])
        let g = try S.compiled(gbnf: #"root ::= "{\"name\": " [a-z]+ "}""#, vocab)
        var m = GrammarMatcher(g)
        #expect(m.forcedBytes() == Array("{\"name\": ".utf8))
        // "{" then "\"name" ("\"name" could not be extended past the forced bytes), then "\":"; the final
        // " " is left out because... it is the longest match at the end and has no extension either.
        #expect(m.forcedTokens() == [0, 2, 3, 5])
        try m.accept(token: 0)
        #expect(m.forcedBytes() == Array("\"name\": ".utf8))
    }

    @Test func leftRecursionRewrittenOrRefused() throws {
        let vocab = S.vocabulary(["1", "+", "1+1"])
        let g = try S.compiled(gbnf: "root ::= root \"+\" num | num\nnum ::= \"1\"", vocab)
        var m = GrammarMatcher(g)
        #expect(try S.allowed(&m) == [0, 2])
        try m.accept(token: 2)
        #expect(try S.allowed(&m) == [1, 3])
        #expect(throws: GrammarCompileError.leftRecursion(rule: "a")) {
            try S.compiled(gbnf: "root ::= a\na ::= b \"x\" | \"y\"\nb ::= a \"z\"", vocab)
        }
    }

    @Test func boundedRollbackWindowKeepsMasksExact() throws {
        let vocab = S.vocabulary(["(", ")", "()", "((", "))", "x"])
        let g = try S.compiled(gbnf: #"root ::= "(" root ")" root | "x""#, vocab)
        var full = GrammarMatcher(g)
        var windowed = GrammarMatcher(g, maxRollback: 2)
        var history: [[Int]] = []
        for step in 0..<40 {
            let allowed = try S.allowed(&full)
            history.append(allowed)
            #expect(try S.allowed(&windowed) == allowed)
            let choices = allowed.filter { $0 != 6 }   // not EOS
            guard !choices.isEmpty else { break }
            let token = choices[(step * 7) % choices.count]
            try full.accept(token: token)
            try windowed.accept(token: token)
        }
        #expect(try S.allowed(&windowed) == S.allowed(&full))
        #expect(windowed.rollbackAvailable <= 2 * 2 + 16)
        #expect(full.rollbackAvailable > 2 * 2 + 16)
        #expect(throws: MatcherError.rollbackTooFar(requested: 40, available: windowed.rollbackAvailable)) { try windowed.rollback(40) }
        try windowed.rollback(2)
        #expect(try S.allowed(&windowed) == history[history.count - 2])
        #expect(windowed.memoryFootprint < full.memoryFootprint + 4096)
    }

    @Test func stickyFailureAfterLimit() throws {
        var limits = MaskLimits()
        limits.maxStacks = 2
        let vocab = S.vocabulary(["a"])
        // Three ways to read "a" at once, each a real recursion (not in tail position, so a stack each:
        // tail-only cycles are inlined into the automaton and need none).
        let grammar = try Grammar(gbnf: "root ::= x | y | z\nx ::= \"a\" x \"b\" | \"a\"\ny ::= \"a\" y \"c\" | \"a\"\nz ::= \"a\" z \"d\" | \"a\"")
        let g = try CompiledGrammar(grammar, vocabulary: VocabularyIndex(vocab), limits: limits)
        var m = GrammarMatcher(g)
        #expect(throws: MatcherError.tooManyStacks(limit: 2)) { try m.accept(token: 0) }
        #expect(throws: MatcherError.failed(.tooManyStacks(limit: 2))) { try m.accept(token: 0) }
        m.reset()
        #expect(m.error == nil)
    }
}
