import Testing
@testable import GuidedGrammar

/// Repetition operators stacked on one element (`x+++`, `x{2}{3}`), as fuzzed GBNF writes them: the
/// simple ones fold exactly, counted ones nest at most `GBNFParser.maximumNestedRepetitions` deep, and the
/// sentence sampler skips a grammar whose shortest sentence is enormous.
@Suite struct StackedRepetitionTests {
    static let x = GrammarExpr.bytes([0x78])

    @Test(arguments: [
        // (inner min, inner max, outer min, outer max) → folded (min, max)
        ((0, 1, 0, 1), (0, 1)), ((0, 1, 0, nil), (0, nil)), ((0, 1, 1, nil), (0, nil)),
        ((0, nil, 0, 1), (0, nil)), ((0, nil, 0, nil), (0, nil)), ((0, nil, 1, nil), (0, nil)),
        ((1, nil, 0, 1), (0, nil)), ((1, nil, 0, nil), (0, nil)), ((1, nil, 1, nil), (1, nil)),
        // unbounded over unbounded with at least one block: the product of the lower bounds
        ((1, nil, 2, nil), (2, nil)), ((2, nil, 2, nil), (4, nil)), ((0, nil, 5, nil), (0, nil)), ((3, nil, 7, nil), (21, nil)),
        ((1000, nil, 1000, nil), (1_000_000, nil)),
        // unbounded inside, between lo >= 1 and hi blocks outside: still at least a·lo copies
        ((2, nil, 2, 3), (4, nil)), ((0, nil, 226, 226), (0, nil)), ((1, nil, 1, 5), (1, nil)), ((3, nil, 2, 2), (6, nil)),
        // up to hi >= 1 blocks of x* or x+: x*
        ((0, nil, 0, 2), (0, nil)), ((1, nil, 0, 7), (0, nil)),
    ] as [((Int, Int?, Int, Int?), (Int, Int?))])
    func simpleOperatorsFold(_ c: ((Int, Int?, Int, Int?), (Int, Int?))) {
        let ((a, b, lo, hi), (m, n)) = c
        #expect(GrammarExpr.repeated(.repeat(Self.x, min: a, max: b), min: lo, max: hi) == .repeat(Self.x, min: m, max: n))
    }

    @Test func countedRepetitionsDoNotFold() {
        let inner = GrammarExpr.repeat(Self.x, min: 2, max: 2)
        #expect(GrammarExpr.repeated(inner, min: 0, max: nil) == .repeat(inner, min: 0, max: nil))
        // (x{2,})* and (x{2,}){0,2} allow 0 or at least 2 copies, not 1; a product past what GBNF can
        // write stays nested.
        let twoOrMore = GrammarExpr.repeat(Self.x, min: 2, max: nil)
        #expect(GrammarExpr.repeated(twoOrMore, min: 0, max: nil) == .repeat(twoOrMore, min: 0, max: nil))
        #expect(GrammarExpr.repeated(twoOrMore, min: 0, max: 2) == .repeat(twoOrMore, min: 0, max: 2))
        let big = GrammarExpr.repeat(Self.x, min: 1001, max: nil)
        #expect(GrammarExpr.repeated(big, min: 1000, max: nil) == .repeat(big, min: 1000, max: nil))
        #expect(GrammarExpr.repeated(.repeat(Self.x, min: 0, max: 1), min: 3, max: 3) == .repeat(.repeat(Self.x, min: 0, max: 1), min: 3, max: 3))
        #expect(GrammarExpr.repeated(inner, min: 1, max: 1) == inner)
    }

    @Test func gbnfStackedOperators() throws {
        #expect(try Grammar(gbnf: "root ::= \"x\"+*?+").startRule.body == .repeat(Self.x, min: 0, max: nil))
        #expect(try Grammar(gbnf: "root ::= \"x\"{2}{3}").startRule.body == .repeat(.repeat(Self.x, min: 2, max: 2), min: 3, max: 3))
        #expect(try Grammar(gbnf: "root ::= \"x\"{1,}{2,}{2,}+").startRule.body == .repeat(Self.x, min: 4, max: nil))
        let deep = "root ::= \"x\"" + String(repeating: "{2}", count: 33)
        #expect(throws: GBNFError.self) { try Grammar(gbnf: deep) }
        do { _ = try Grammar(gbnf: deep) } catch {
            #expect(error.description == "GBNF error at line 1, column 109: more than 32 repetition operators on one element")
        }
    }

    /// A fuzz input of the export target (2026-12-02, over 2 minutes of oracle time): a recursive rule
    /// under stacked counts that do not fold past the optional `{,2}`. Its ambiguity is cubic for the
    /// Earley recognizer; a bounded question ends with `.workLimitExceeded` instead of taking minutes.
    @Test func boundedRecognizerWorkEndsOnAmbiguousStacks() throws {
        let g = try Grammar(gbnf: "root ::= [?0-9]root{1,}{2,}{1,}{2,}{2,}{,2}{2,}{6,}{26}{2,}")
        let r = try ReferenceRecognizer(g)
        let strings: [[UInt8]] = (1...24).map { [UInt8](repeating: 0x37, count: $0) }
        #expect(throws: ReferenceRecognizerError.workLimitExceeded(limit: 100_000)) {
            try r.acceptsEach(strings, maximumItems: 100_000)
        }
        #expect(throws: ReferenceRecognizerError.workLimitExceeded(limit: 100_000)) {
            try GrammarDifferential.compare(g, g, strings: 40, seed: 1, budget: 16, maximumSentence: 32, maximumItems: 100_000)
        }
        // Within the bound, the answers are the unbounded ones.
        let small = try ReferenceRecognizer(Grammar(gbnf: "root ::= [0-9]+ (\",\" [0-9]+)*"))
        let texts: [[UInt8]] = ["1", "12,3", "1,", ",", "", "4,5,6"].map { Array($0.utf8) }
        #expect(try small.acceptsEach(texts, maximumItems: 10_000) == [true, true, false, false, false, true])
        #expect(small.acceptsEach(texts) == [true, true, false, false, false, true])
    }

    @Test func samplerSkipsAGrammarWhoseShortestSentenceIsHuge() throws {
        let g = try Grammar(gbnf: "root ::= [0-9]" + String(repeating: "{2,}", count: 31))
        var rng = SystemRandomNumberGenerator()
        #expect(SentenceSampler(g).hasSentences)
        #expect(SentenceSampler(g).sentence(using: &rng) == nil)
    }

    /// The differential asks about a grammar's sentences only when its shortest one fits
    /// `maximumSentence` (the fuzz target's 64 bytes): `[0-9]{1,}{2,}{2,}` has none under 4 bytes.
    @Test func differentialLeavesOutSentencesLongerThanItsLimit() throws {
        let g = try Grammar(gbnf: "root ::= [0-9]{1,}{2,}{2,}")
        #expect(SentenceSampler(g).shortestSentenceLength == 4)
        let limited = try GrammarDifferential.compare(g, g, strings: 50, seed: 3, maximumSentence: 3)
        #expect(limited.acceptedByBoth == 0)
        #expect(limited.agrees)
        let full = try GrammarDifferential.compare(g, g, strings: 50, seed: 3, maximumSentence: 4)
        #expect(full.acceptedByBoth > 0)
        #expect(full.agrees)
    }

    /// `{2,3}` stacked 23 times over a body that may be empty (bounded, so it does not fold): every level
    /// needs two copies, none writes a byte once the budget is spent, so each sentence would visit 2^23
    /// bodies. Out of budget, the sampler takes the empty way for the remaining copies, and a step limit
    /// ends any other such chain.
    @Test func samplerEndsOnStackedRepetitionsOfAnEmptyableBody() throws {
        let g = try Grammar(gbnf: "root ::= [0-9]{2,}{0,}" + String(repeating: "{2,3}", count: 23))
        #expect(SentenceSampler(g).shortestSentenceLength == 0)
        var rng = DifferentialGenerator(seed: 5)
        for _ in 0..<20 {
            let s = try #require(SentenceSampler(g).sentence(using: &rng, budget: 16))
            #expect(s.allSatisfy { (0x30...0x39).contains($0) })
            #expect(s.count <= 64)
        }
        let empty = try Grammar(gbnf: "root ::= \"\"{0,}" + String(repeating: "{2,3}", count: 30))
        #expect(SentenceSampler(empty).sentence(using: &rng, budget: 16) == [])
    }
}
