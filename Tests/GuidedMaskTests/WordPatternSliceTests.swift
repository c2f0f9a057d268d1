import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers
import GuidedTestSupport

/// Strings of counted words (`^(?:\S+\s+){0,n}\S+$`, common in real schemas): the 16-character slice
/// check reaches the same few automaton states at many depths, and is decided by the layered search
/// (`GrammarMatcher.sliceApplies`, each pair once at its fewest characters). A wrong depth there allows a
/// token that runs past the last word, so every token of a vocabulary of multi-word tokens up to 16
/// characters and past it is compared with the brute-force reference at every step of random walks,
/// with and without a length bound counted beside the pattern.
@Suite struct WordPatternSliceTests {
    static let tokens = [
        "\"", "a", "b", "ab", " ", "  ", "\t", "a ", " a", "a b", "a b c", "a b c d", "a b c d e",
        "a b c d e f g hh", "a b c d e f g h ", " a b c d e f g h", "ab cd ef gh ij k", "abc def ghi jkl",
        "a b c d e f g h i", "x y z w v u t s r q", "é", "é é", "é é é é é é é é", "東", " 東京 ", "東 京 東 京 東 京 東 京",
        "a\"", " \"", "\u{2003}", "a\u{2003}b",
    ]

    func check(_ grammar: Grammar, walks: Int, seed: UInt64) throws {
        var check = try TokenLevelCheck(grammar, vocabulary: MaskTestSupport.vocabulary(Self.tokens))
        try check.run(walks: walks, steps: 24, seed: seed)
        #expect(check.mismatches == [])
        #expect(check.checks > walks * Self.tokens.count * 4)
    }

    static func compile(_ schema: String, counted: Bool) throws -> Grammar {
        var options = JSONSchemaCompileOptions()
        if counted { options.limits.countedLengthsFrom = 0 }
        let grammar = try JSONSchemaCompiler.compile(text: schema, options: options)
        #expect(grammar.rules.contains { $0.countedLength != nil } == counted)
        return grammar
    }

    @Test func wordsOfAPattern() throws {
        try check(Self.compile(#"{"type":"string","pattern":"^(?:\\S+\\s+){0,30}\\S+$"}"#, counted: false), walks: 60, seed: 1)
    }

    /// The same words with a length bound: as the product automaton against the reference, and counted
    /// beside the pattern (which the reference cannot read) against the product, mask for mask.
    @Test func wordsOfAPatternWithALengthBound() throws {
        let schema = #"{"type":"string","minLength":1,"maxLength":24,"pattern":"^$|(^(?:\\S+\\s+){0,4}\\S+$)"}"#
        let productGrammar = try Self.compile(schema, counted: false)
        try check(productGrammar, walks: 30, seed: 2)
        let vocab = MaskTestSupport.vocabulary(Self.tokens)
        let index = try VocabularyIndex(vocab)
        let product = try CompiledGrammar(productGrammar, vocabulary: index)
        let counted = try CompiledGrammar(Self.compile(schema, counted: true), vocabulary: index)
        var rng = SplitMix64Generator(seed: 3)
        var compared = 0
        for _ in 0..<60 {
            var a = GrammarMatcher(counted), b = GrammarMatcher(product)
            for _ in 0..<24 {
                let ma = try MaskTestSupport.allowed(&a), mb = try MaskTestSupport.allowed(&b)
                compared += 1
                #expect(ma == mb)
                guard ma == mb, let t = ma.filter({ $0 < Self.tokens.count }).randomElement(using: &rng) else { break }
                try a.accept(token: t)
                try b.accept(token: t)
            }
        }
        #expect(compared > 300)
    }
}

/// Where the bounded slices apply in a string of counted words, with Qwen2's vocabulary (whose full
/// check budget lets the layered search run; a small vocabulary's scaled budget stops it early). Inside
/// word j of `^(?:\S+\s+){0,n}\S+$`, n + 1 - j more words may begin, and c characters begin at most c/2
/// of them (" w" each): every plain text of 16 characters is readable exactly when j <= n - 7, of 8
/// exactly when j <= n - 3. (15 characters hold as many separators as 16, so a search one character
/// short of its depth answers the same here; two short, it does not.)
@Suite(.enabled(if: SharedData.present(for: "WordPatternSliceDepthTests"))) struct WordPatternSliceDepthTests {
    @Test func boundedSlicesApplyExactlyWhileEnoughWordsAreLeft() throws {
        let n = 24
        let grammar = try JSONSchemaCompiler.compile(text: #"{"type":"string","pattern":"^(?:\\S+\\s+){0,\#(n)}\\S+$"}"#)
        let index = SharedVocabularies.qwen2
        let g = try CompiledGrammar(grammar, vocabulary: index)
        var m = GrammarMatcher(g)
        try m.accept(bytes: Array("\"w".utf8))
        for j in 1...n + 1 {
            if j > 1 { try m.accept(bytes: Array(" w".utf8)) }
            let state = m.engine.nodes[Int(m.sets[Int(m.current.setStart)])].state
            let sixteen = m.sliceApplies(index.slices[1], state: state)
            let eight = m.sliceApplies(index.slices[2], state: state)
            #expect(sixteen == (j <= n - 7), "16 characters in word \(j)")
            #expect(eight == (j <= n - 3), "8 characters in word \(j)")
            // Each search alone, with room to finish: both orders decide the same.
            for layered in [false, true] {
                var work = GrammarMatcher.TextSearchWork(stepLimit: .max, setBytesLimit: .max, setBytesAtStart: 0)
                let r = m.searchText(state, depthLimit: 16, budget: 1 << 20, layered: layered, [], &work)
                #expect(r == (j <= n - 7), "16 characters in word \(j), layered \(layered)")
            }
        }
    }
}
