import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

/// The lazily built automaton and the token slices, on cases where the answer is known exactly.
@Suite struct LazyAutomatonTests {
    typealias S = MaskTestSupport

    // Every token is plain JSON string text, so every slice's "rest" trie is empty.
    //                          0    1     2      3 (é)     4: </s>
    static let plainTokens = ["a", "b", "ab", "\u{00E9}"]

    @Test func unboundedTextTakesTheSliceWithAnEmptyRestTrie() throws {
        let vocab = S.vocabulary(Self.plainTokens)
        let g = try S.compiled(gbnf: #"root ::= [^"\\\x00-\x1F]*"#, vocab)
        var m = GrammarMatcher(g)
        #expect(try S.allowed(&m) == [0, 1, 2, 3, 4])
        try m.accept(token: 2)
        try m.accept(token: 3)
        #expect(try S.allowed(&m) == [0, 1, 2, 3, 4])
    }

    /// A length-bounded text: the 16- and 8-character slices apply while that much room is left, the
    /// whole trie is walked after; either way only tokens that fit are allowed.
    @Test func boundedTextAllowsExactlyWhatFits() throws {
        let vocab = S.vocabulary(Self.plainTokens)
        let g = try S.compiled(gbnf: #"root ::= [^"\\\x00-\x1F]{0,20}"#, vocab)
        var m = GrammarMatcher(g)
        for used in 0...20 {
            let room = 20 - used
            let expected = room >= 2 ? [0, 1, 2, 3, 4] : room == 1 ? [0, 1, 3, 4] : [4]
            #expect(try S.allowed(&m) == expected, "after \(used) characters")
            if room > 0 { try m.accept(token: 0) }
        }
    }

    /// A declared-order object's shape: member k's rule refers to member k + 1's twice in tail position
    /// (after the member, and when it is absent). Inlined copy by copy this doubles per member; shared
    /// per end state it is linear, so all 30 rules are inlined into the start rule and stay exact.
    @Test func tailReferencesShareOneInlinedCopy() throws {
        let letters: [String] = Array("abcdefghijklmnopqrstuvwxyzABCD").map { String($0) }
        let vocab = S.vocabulary(letters + ["}"])
        var rules = ["root ::= m0"]
        for (k, l) in letters.enumerated() { rules.append("m\(k) ::= \"\(l)\" m\(k + 1) | m\(k + 1)") }
        rules.append("m30 ::= \"}\"")
        let g = try S.compiled(gbnf: rules.joined(separator: "\n"), vocab)
        #expect(g.keptRules == ["root"])
        #expect(g.nfaStateCount < 200)
        var m = GrammarMatcher(g)
        #expect(try S.allowed(&m) == Array(0...30))
        try m.accept(token: 2)
        #expect(try S.allowed(&m) == Array(3...30))
        try m.accept(token: 29)
        #expect(try S.allowed(&m) == [30])
        try m.accept(token: 30)
        #expect(try S.allowed(&m) == [31])
    }

    /// A rule's start state is made when a state that calls it is made, not at compile: a large schema
    /// has hundreds of rules and a first mask enters a few. `x` and `y` are recursive, so they stay
    /// called rules; the text never reads `b`, so the state that calls `y` is never made, nor y's start.
    @Test func ruleStartsAreMadeWhenFirstCalled() throws {
        //                         0    1    2    3    4: </s>
        let vocab = S.vocabulary(["a", "(", ")", "x"])
        let g = try S.compiled(gbnf: """
            root ::= "a" x | "b" y
            x ::= "(" x ")" | "x"
            y ::= "[" y "]" | "y"
            """, vocab)
        #expect(g.keptRules == ["root", "x", "y"])
        func rules() -> [Int?] { (1...g.stateCount).map { g.automaton.ruleIndex(of: Int32($0)) } }
        // Root's start only: its call edges come after a byte.
        #expect(rules() == [0])
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        // The state after `a`, whose call edge made x's start and the state x returns to.
        #expect(rules() == [0, 0, 0, 1])
        #expect(try S.allowed(&m) == [1, 3])
        try m.accept(token: 1)
        #expect(try S.allowed(&m) == [1, 3])
        try m.accept(token: 3)
        #expect(try S.allowed(&m) == [2])
        try m.accept(token: 2)
        #expect(try S.allowed(&m) == [4])
        #expect(!rules().contains(2))
    }

    /// Every position of a long bounded string is its own state. Entries that take a slice keep only the
    /// tokens beyond it, so 650 positions with 1,200 allowed tokens each stay cached in the default
    /// 6 MiB (as 19 KB bitmasks over a 152k-id vocabulary, about 330 would fit and the rest would be
    /// walked in full at every visit).
    @Test func sliceEntriesStayCachedOverManyStringStates() throws {
        let tokens = ["a", "\""] + (0..<1_200).map { "t\($0)" }
        let vocab = S.vocabulary(tokens, padTo: 152_000)
        let g = try S.compiled(gbnf: #"root ::= "\"" [^"\\\x00-\x1F]{0,700} "\"""#, vocab)
        var m = GrammarMatcher(g)
        #expect(try S.allowed(&m) == [1])
        try m.accept(token: 1)
        for _ in 0..<650 {
            _ = try S.allowed(&m)
            try m.accept(token: 0)
        }
        #expect(try S.allowed(&m) == Array(0...1_201))
        #expect(g.cacheStatistics.dense == 0)
        #expect(g.cacheStatistics.states >= 650)
    }

    /// A repeat too long to inline (30,000 copies of a 63-node character rule) is split into blocks of
    /// 128 called as one rule; masks stay exact across block ends, before the minimum, and at the
    /// maximum.
    @Test func longRepeatInBlocksStaysExact() throws {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let letters = alphabet.map { "\"\($0)\"" }
        let hundred = String(repeating: "a", count: 100)
        //                                0    1     2        3: </s>
        let vocab = S.vocabulary(["a", "ab", hundred])
        let g = try S.compiled(gbnf: "root ::= c{130,30000}\nc ::= \(letters.joined(separator: " | "))", vocab)
        #expect(g.keptRules.contains { $0.hasSuffix("{128}") }, "the repeat was not split into blocks: \(g.keptRules)")
        var m = GrammarMatcher(g)
        var used = 0
        func advance(to target: Int) throws {
            while target - used >= 100 { try m.accept(token: 2); used += 100 }
            while used < target { try m.accept(token: 0); used += 1 }
        }
        for stop in [0, 27, 28, 29, 126, 127, 128, 129, 130, 131, 255, 256, 257, 29_899, 29_900, 29_998, 29_999, 30_000] {
            try advance(to: stop)
            let room = 30_000 - used
            var expected: [Int] = []
            if room >= 1 { expected.append(0) }
            if room >= 2 { expected.append(1) }
            if room >= 100 { expected.append(2) }
            if used >= 130 { expected.append(3) }
            #expect(try S.allowed(&m) == expected, "after \(used) characters")
        }
    }

    /// A repeat that fits the inlining budget is still blocked past `alwaysBlocked` copies (its NFA would
    /// cost more to build than its masks save), and stays exact across block ends; one just under the
    /// threshold is inlined whole.
    @Test func repeatPastThresholdIsBlockedWithinBudget() throws {
        //                                0    1     2: </s>
        let vocab = S.vocabulary(["a", "aa"])
        let long = try S.compiled(gbnf: "root ::= c{0,1500}\nc ::= \"a\" | \"b\"", vocab)
        #expect(long.keptRules.contains { $0.hasSuffix("{128}") }, "not split into blocks: \(long.keptRules)")
        let short = try S.compiled(gbnf: "root ::= c{0,1000}\nc ::= \"a\" | \"b\"", vocab)
        #expect(short.keptRules == ["root"])
        var m = GrammarMatcher(long)
        var used = 0
        for stop in [0, 127, 128, 129, 256, 1_407, 1_408, 1_409, 1_498, 1_499, 1_500] {
            while used + 2 <= stop { try m.accept(token: 1); used += 2 }
            while used < stop { try m.accept(token: 0); used += 1 }
            let room = 1_500 - used
            var expected: [Int] = []
            if room >= 1 { expected.append(0) }
            if room >= 2 { expected.append(1) }
            expected.append(2)
            #expect(try S.allowed(&m) == expected, "after \(used) characters")
        }
    }

    /// A big rule under a long repeat stays a called rule (one call per copy) instead of being inlined a
    /// thousand times; a small one is still inlined.
    @Test func bigRuleUnderLongRepeatStaysARule() throws {
        //                                0    1    2     3: </s>
        let vocab = S.vocabulary(["[", "]", ","] + (0..<26).map { String(UnicodeScalar(UInt8(97 + $0))) })
        // An item of 26 alternatives of 6 letters each: about 200 expression nodes.
        let words = (0..<26).map { i in "\"" + String(repeating: String(UnicodeScalar(UInt8(97 + i))), count: 6) + "\"" }
        let g = try S.compiled(gbnf: "root ::= \"[\" item (\",\" item){0,999} \"]\"\nitem ::= \(words.joined(separator: " | "))", vocab)
        #expect(g.keptRules == ["root", "item"])
        #expect(g.nfaStateCount < 5_000)
        let small = try S.compiled(gbnf: "root ::= \"[\" item (\",\" item){0,999} \"]\"\nitem ::= \"a\" | \"b\"", vocab)
        #expect(small.keptRules == ["root"])
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        for _ in 0..<6 { try m.accept(token: 4) }        // "bbbbbb" (token 4 = "b")
        #expect(try S.allowed(&m) == [1, 2])             // "]" or ","
        try m.accept(token: 2)
        for _ in 0..<3 { try m.accept(token: 5) }        // "ccc"
        #expect(try S.allowed(&m) == [5])                // only more "c"
    }

    /// Rules that refer to each other only in tail position (the rule per state that a large string
    /// automaton becomes) are a regular language: they are inlined, the cycle closed by ε-edges, and no
    /// call is left. Here `a` = (xz)*(x|y).
    @Test func rightLinearCyclesAreInlined() throws {
        //                                 0     1    2    3    4     5       6: </s>
        let vocab = S.vocabulary(["\"", "x", "y", "z", "xz", "x\""])
        let g = try S.compiled(gbnf: """
            root ::= "\\"" a "\\""
            a ::= "x" b | "y"
            b ::= "z" a | ""
            """, vocab)
        #expect(g.keptRules == ["root"])
        var m = GrammarMatcher(g)
        #expect(try S.allowed(&m) == [0])
        try m.accept(token: 0)
        for _ in 0..<3 {
            #expect(try S.allowed(&m) == [1, 2, 4, 5])
            try m.accept(token: 1)
            #expect(try S.allowed(&m) == [0, 3])
            try m.accept(token: 3)
        }
        #expect(try S.allowed(&m) == [1, 2, 4, 5])
        try m.accept(token: 2)
        #expect(try S.allowed(&m) == [0])
        try m.accept(token: 0)
        #expect(try S.allowed(&m) == [6])
    }

    @Test func allByteValuesAsLiteralsCompile() throws {
        let vocab = S.vocabulary(["a", "\u{00E9}", "xyz"])
        let everyByte = GrammarExpr.choice((0..<256).map { .bytes([UInt8($0)]) })
        let g = try S.compiled(Grammar(root: .star(everyByte)), vocab)
        var m = GrammarMatcher(g)
        #expect(try S.allowed(&m) == [0, 1, 2, 3])
    }

    /// States are made as matchers reach them; going past the limit fails every matcher of the grammar
    /// with a sticky error instead of answering from a partial automaton.
    @Test func runtimeStateLimitIsAStickyError() throws {
        let vocab = S.vocabulary(["a", "b", "c", "d", "e", "f", "g", "h"])
        var limits = MaskLimits()
        limits.maxAutomatonStates = 4
        let g = try CompiledGrammar(Grammar(gbnf: #"root ::= "abcdefgh""#), vocabulary: VocabularyIndex(vocab), limits: limits)
        var m = GrammarMatcher(g)
        var failure: MatcherError? = nil
        for token in 0..<8 {
            do {
                #expect(try S.allowed(&m) == [token])
                try m.accept(token: token)
            } catch let e as MatcherError {
                failure = e
                break
            }
        }
        #expect(failure == .automatonTooLarge(limit: 4))
        #expect(throws: MatcherError.failed(.automatonTooLarge(limit: 4))) { try S.allowed(&m) }
        var fresh = GrammarMatcher(g)
        #expect(throws: MatcherError.automatonTooLarge(limit: 4)) { try S.allowed(&fresh) }
    }
}
