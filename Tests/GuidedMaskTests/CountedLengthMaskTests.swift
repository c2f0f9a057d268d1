import Testing
import GuidedSchema
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

/// Strings whose length is counted beside their content automaton (`CountedLength`, `CountedStrings`),
/// against the product automaton of the same schema: with small bounds the product fits the automaton
/// limits, and it is the exact language, so the two grammars must allow the same tokens after every
/// token sequence up to a depth (every mask exact both ways, and no dead end, since the product has
/// none), and the accept must refuse what the mask refuses. The vocabulary holds multi-byte characters whole and split, escapes and quotes inside tokens.
@Suite struct CountedLengthMaskTests {
    static let tokens: [[UInt8]] = ["\"", "a", "b", "c", " ", "ab", "ba", "aa", "bb", "\"a", "a\"", "ab\"", "\",", "\\n",
                                    "\\", "n", "é", "éa", "a é", "{", "}", ":", ",", "\"s\":", "null", "\"}", "1",
                                    "\"a\"", "\"\"", "\"aaaaaa", "\",\"ab", ":\"bbbbb"].map { Array($0.utf8) }
        + [[0xC3], [0xA9], [0xA9, 0x22]]   // é split after its lead byte, and its tail with a quote

    static let vocabulary: TokenVocabulary = {
        var all = tokens
        all.append(Array("</s>".utf8))
        return TokenVocabulary(tokens: all, specialTokenIDs: [all.count - 1], eosTokenIDs: [all.count - 1])
    }()

    /// Schemas, each compiled with its length counted and as the product.
    static let schemas: [String] = [
        #"{"type":"string","pattern":"^[ab]+( [ab]+)*$","maxLength":5}"#,
        #"{"type":"string","pattern":"^(ab|c)*$","minLength":2,"maxLength":5}"#,
        #"{"type":"string","pattern":"^[a-cé\n ]*$","minLength":1,"maxLength":4}"#,
        #"{"type":"string","pattern":"^(a|bb|é)+$","minLength":3,"maxLength":6}"#,
        // Two lanes at one quote, and a parse outside any counted string.
        #"{"anyOf":[{"type":"string","pattern":"^a+$","maxLength":3},{"type":"string","pattern":"^[ab]*$","minLength":2,"maxLength":4}]}"#,
        #"{"anyOf":[{"type":"string","pattern":"^a+$","maxLength":2},{"type":"string","pattern":"^b"}]}"#,
        // Inside an object, with nullable members and a string after it.
        #"{"type":"object","properties":{"s":{"type":["string","null"],"pattern":"^[ab ]+$","maxLength":3}},"required":["s"],"additionalProperties":false}"#,
    ]

    static func compile(_ schema: String, counted: Bool) throws -> CompiledGrammar {
        var options = JSONSchemaCompileOptions(whitespace: .compact)
        if counted { options.limits.countedLengthsFrom = 0 }
        let grammar = try JSONSchemaCompiler.compile(text: schema, options: options)
        #expect(grammar.rules.contains { $0.countedLength != nil } == counted, "\(schema)")
        return try CompiledGrammar(grammar, vocabulary: VocabularyIndex(vocabulary))
    }

    @Test(arguments: schemas)
    func masksEqualTheProductAutomaton(_ schema: String) throws {
        let counted = try Self.compile(schema, counted: true)
        let product = try Self.compile(schema, counted: false)
        // Breadth first over the token sequences both allow, to depth 6.
        var frontier: [(GrammarMatcher, GrammarMatcher, [Int])] = [(GrammarMatcher(counted), GrammarMatcher(product), [])]
        var compared = 0
        for _ in 0..<6 {
            var next: [(GrammarMatcher, GrammarMatcher, [Int])] = []
            for (var a, var b, path) in frontier {
                let ma = try MaskTestSupport.allowed(&a), mb = try MaskTestSupport.allowed(&b)
                compared += 1
                #expect(ma == mb, "\(schema) after \(path.map { String(decoding: Self.tokens[$0], as: UTF8.self) })")
                guard ma == mb else { return }
                // The accept agrees with the mask: a refused token is refused, and the matcher is unchanged.
                for t in 0..<Self.tokens.count where !ma.contains(t) {
                    var probe = a
                    #expect(throws: MatcherError.self, "\(schema): token \(t) after \(path)") { try probe.accept(token: t) }
                }
                for t in ma where t < Self.tokens.count {
                    var a2 = a, b2 = b
                    try a2.accept(token: t)
                    try b2.accept(token: t)
                    next.append((a2, b2, path + [t]))
                }
            }
            frontier = next
        }
        #expect(compared > 50)
    }

    /// A counted string as a member under member sets, where the member's location rule is inlined and
    /// the grammar pruned (`GrammarPruningTests`): the bound holds in the matcher.
    @Test func aMemberUnderMemberSetsKeepsItsBound() throws {
        var options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets)
        options.limits.countedLengthsFrom = 0
        let schema = #"{"type":"object","properties":{"s":{"type":"string","pattern":"^[ab]+$","maxLength":3},"n":{"type":"integer"}},"required":["s"]}"#
        let c = try CompiledGrammar(try JSONSchemaCompiler.compile(text: schema, options: options), vocabulary: VocabularyIndex(Self.vocabulary))
        #expect(MaskTestSupport.accepts(c, #"{"s":"aba"}"#))
        #expect(MaskTestSupport.accepts(c, #"{"n":1,"s":"ab"}"#))
        #expect(!MaskTestSupport.accepts(c, #"{"s":"abab"}"#))
        #expect(!MaskTestSupport.accepts(c, #"{"n":1,"s":"abab"}"#))
    }

    /// A long bound (`countedLongBound`, 128) is counted where the product would pass
    /// `countedLongProductStates` (256); a shorter one stays a product, and so does a long one where the
    /// limit is raised, and a pattern that bounds its own length below the bound (`^[a-z]{1,100}$`: its
    /// product of 101 × 101 states would be counted by the bound alone). (`[0-9]{20}`
    /// unanchored: about 21 content states, times 101 or 201 positions.) The counted string keeps its
    /// bounds in the matcher.
    @Test func longBoundsAreCountedWhereTheProductIsLarge() throws {
        func grammar(_ maxLength: Int, longBound: Int = 128) throws -> Grammar {
            var options = JSONSchemaCompileOptions(whitespace: .compact)
            options.limits.countedLongBound = longBound
            return try JSONSchemaCompiler.compile(text: #"{"type":"string","pattern":"[0-9]{20}","maxLength":\#(maxLength)}"#, options: options)
        }
        #expect(try grammar(200).rules.contains { $0.countedLength != nil })
        #expect(try !grammar(100).rules.contains { $0.countedLength != nil })
        #expect(try !grammar(200, longBound: 201).rules.contains { $0.countedLength != nil })
        for pattern in ["^[0-9]{1,3}$", "^[a-z]{1,100}$"] {   // 4 and 101 positions: shorter than the bound
            let ownBound = try JSONSchemaCompiler.compile(text: #"{"type":"string","pattern":"\#(pattern)","maxLength":200}"#,
                                                          options: JSONSchemaCompileOptions(whitespace: .compact))
            #expect(!ownBound.rules.contains { $0.countedLength != nil }, "\(pattern)")
        }
        let c = try CompiledGrammar(try grammar(200), vocabulary: VocabularyIndex(Self.vocabulary))
        #expect(MaskTestSupport.accepts(c, "\"" + String(repeating: "1", count: 200) + "\""))
        #expect(!MaskTestSupport.accepts(c, "\"" + String(repeating: "1", count: 201) + "\""))
        #expect(!MaskTestSupport.accepts(c, "\"" + String(repeating: "1", count: 19) + "\""))
        #expect(MaskTestSupport.accepts(c, "\"ab" + String(repeating: "1", count: 20) + "ba\""))
    }

    /// Eight counted lengths open at one quote (`CountedStrings.laneCapacity`) and keep their bounds; a ninth
    /// fails the matcher rather than be read inexactly.
    @Test func eightLanesOpenAtOneQuoteANinthFails() throws {
        func anyOf(_ n: Int) throws -> CompiledGrammar {
            let alternatives = (0..<n).map { #"{"type":"string","pattern":"^[ab]*$","maxLength":\#(2 + $0)}"# }
            var options = JSONSchemaCompileOptions(whitespace: .compact)
            options.limits.countedLengthsFrom = 0
            let g = try JSONSchemaCompiler.compile(text: #"{"anyOf":["# + alternatives.joined(separator: ",") + "]}", options: options)
            #expect(g.rules.filter { $0.countedLength != nil }.count >= n)
            return try CompiledGrammar(g, vocabulary: VocabularyIndex(Self.vocabulary))
        }
        let id = { (s: String) in Self.tokens.firstIndex(of: Array(s.utf8))! }
        let eight = try anyOf(8)
        // (Results taken out first: a failed expectation reflects its operands, and a compiled grammar
        // holds a non-copyable field that Swift Testing's reflection traps on.)
        let widest = MaskTestSupport.accepts(eight, "\"ababababa\""), tooLong = MaskTestSupport.accepts(eight, "\"ababababab\"")
        #expect(widest)    // 9 = 2 + 7: the widest alternative
        #expect(!tooLong)  // 10: none
        var m = GrammarMatcher(try anyOf(9))
        var thrown: MatcherError? = nil
        do { try m.accept(token: id("\"")) } catch { thrown = error }
        #expect(thrown == .tooManyCountedStrings(limit: 8))
    }

    /// Accepting a token the mask refuses is refused too, and leaves the matcher as it was.
    @Test func acceptRefusesWhatTheMaskRefuses() throws {
        let c = try Self.compile(#"{"type":"string","pattern":"^[ab]+$","minLength":2,"maxLength":3}"#, counted: true)
        var m = GrammarMatcher(c)
        let id = { (s: String) in Self.tokens.firstIndex(of: Array(s.utf8))! }
        try m.accept(token: id("\"a"))
        #expect(throws: MatcherError.tokenRejected(token: id("\""), position: 2)) { try m.accept(token: id("\"")) }   // 1 < 2
        try m.accept(token: id("ab"))
        #expect(throws: MatcherError.tokenRejected(token: id("a"), position: 4)) { try m.accept(token: id("a")) }     // 4 > 3
        #expect(try MaskTestSupport.allowed(&m) == [id("\"")])
        try m.accept(token: id("\""))
        #expect(m.canTerminate)
    }

    /// `CountedLength.canFinish` against the completion lengths found by stepping the content automaton
    /// over the pattern's alphabet (its only characters), from every state a prefix of up to four code
    /// points reaches, at every count.
    @Test func canFinishMatchesEnumeration() throws {
        let alphabet = ["a", "b", "é", "\\n"].map { Array($0.utf8) }
        for (pattern, lo, hi) in [(#"^(ab|é)+$"#, 2, 7), (#"^a(\\n|bb)*$"#, 0, 6), (#"^(aaa)*b?$"#, 1, 8)] {
            var options = JSONSchemaCompileOptions()
            options.limits.countedLengthsFrom = 0
            let schema = #"{"type":"string","pattern":"\#(pattern)","minLength":\#(lo),"maxLength":\#(hi)}"#
            let grammar = try JSONSchemaCompiler.compile(text: schema, options: options)
            let counted = try #require(grammar.rules.first { $0.countedLength != nil }?.countedLength)
            let dfa = counted.content
            func step(_ s: Int32, _ bytes: [UInt8]) -> Int32 {
                var s = s
                for b in bytes where s >= 0 { s = dfa.next(s, b) }
                return s
            }
            var states: Set<Int32> = [0]
            var layer: Set<Int32> = [0]
            for _ in 0..<4 {
                layer = Set(layer.flatMap { s in alphabet.map { step(s, $0) } }.filter { $0 >= 0 })
                states.formUnion(layer)
            }
            for s in states {
                var lengths = Set<Int>()
                var reach: Set<Int32> = [s]
                for n in 0...(hi + 1) {
                    if reach.contains(where: { dfa.accepting[Int($0)] }) { lengths.insert(n) }
                    reach = Set(reach.flatMap { r in alphabet.map { step(r, $0) } }.filter { $0 >= 0 })
                }
                for count in 0...(hi + 1) {
                    let expected = lengths.contains { count + $0 >= lo && count + $0 <= hi }
                    #expect(counted.canFinish(state: s, count: count) == expected, "\(schema): state \(s) at \(count)")
                }
            }
            // `lastSafeCount`: the end of the run of counts at which every state that can finish at all can
            // finish within the bounds (each state of the automaton, asked directly).
            // (A minimized automaton has no state that cannot reach acceptance: every state counts.)
            func safe(_ c: Int) -> Bool { c <= hi && (0..<Int32(dfa.stateCount)).allSatisfy { counted.canFinish(state: $0, count: c) } }
            for c in 0...(hi + 1) {
                var last = c - 1
                while safe(last + 1) { last += 1 }
                #expect(counted.lastSafeCount(from: c) == last, "\(schema): from \(c)")
            }
        }
    }
}
