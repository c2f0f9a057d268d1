import GuidedGrammar
import GuidedMask
import GuidedTokenizers
import Testing

@Suite struct BatchFillTests {
    typealias S = MaskTestSupport

    /// Matchers of two grammars at different states, filled on 1, 3 and 8 threads: every row equals the
    /// matcher's own fill, the padding words past its mask are zeroed, and a failing matcher fails alone.
    @Test func rowsEqualSingleFillsOnAnyNumberOfThreads() throws {
        let vocab = S.vocabulary(["a", "b", "ab", "ba", "(", ")", "x"], padTo: 100)
        let ab = try S.compiled(gbnf: #"root ::= ("a" | "b")* "x""#, vocab)
        let parens = try S.compiled(gbnf: #"root ::= "(" root ")" root | """#, vocab)
        var originals: [GrammarMatcher] = []
        for k in 0..<20 {
            var m = GrammarMatcher(k % 2 == 0 ? ab : parens)
            for _ in 0..<(k % 5) { try m.accept(token: k % 2 == 0 ? 2 : 4) }   // "ab"... or "("...
            originals.append(m)
        }
        let words = originals[0].maskWordCount
        var expected: [[UInt32]] = []
        for var m in originals {
            var row: [UInt32] = []
            try m.fillNextTokenMask(into: &row)
            expected.append(row + [0, 0])
        }
        for threads in [1, 3, 8] {
            var matchers = originals
            var masks = [UInt32](repeating: 0xFFFF_FFFF, count: matchers.count * (words + 2))
            let errors = masks.withUnsafeMutableBufferPointer {
                GrammarMatcher.fillNextTokenMasks(&matchers, into: $0, rowWords: words + 2, threads: threads)
            }
            #expect(errors.allSatisfy { $0 == nil })
            for i in 0..<matchers.count {
                #expect(Array(masks[i * (words + 2)..<(i + 1) * (words + 2)]) == expected[i], "row \(i), \(threads) threads")
            }
        }
        // Rows narrower than a mask: every matcher fails with its own error, none writes past its row.
        var matchers = Array(originals.prefix(3))
        var narrow = [UInt32](repeating: 7, count: 3 * (words - 1) + 1)
        let errors = narrow.withUnsafeMutableBufferPointer {
            GrammarMatcher.fillNextTokenMasks(&matchers, into: UnsafeMutableBufferPointer(rebasing: $0[0..<3 * (words - 1)]),
                                              rowWords: words - 1, threads: 4)
        }
        #expect(errors.map { $0?.description } == Array(repeating: "matcher: mask buffer has \(words - 1) words, needs \(words)", count: 3))
        #expect(narrow.last == 7)
    }
}
