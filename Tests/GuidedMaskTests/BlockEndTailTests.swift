import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

private typealias S = MaskTestSupport

/// At the last characters of a `maxLength` block most tokens cross the block's end and go on in the
/// string rule. Their tails are grouped (`SuffixGroups`), and plain tails are accepted without a walk
/// when the caller's state takes a slice (`walkSuffixes`); masks must stay exact either way.
@Suite struct BlockEndTailTests {
    @Test func plainCharacterCountsOfTails() throws {
        //                                 0      1       2        3          4
        let vocab = S.vocabulary(["ab\"c", "xyz", "é\\n", "\"}", "aé"])
        let index = try VocabularyIndex(vocab)
        // (token, bytes read before the return)
        let pairs: [UInt64] = [0 << 16 | 1, 0 << 16 | 3, 1 << 16 | 1, 2 << 16 | 2, 3 << 16 | 1, 4 << 16 | 1]
        let groups = SuffixGroups(pairs: pairs, bytes: index.tokenBytes.baseAddress!, offsets: index.tokenOffsets.baseAddress!)
        var counts: [String: UInt8] = [:]
        for (g, p) in groups.tails.enumerated() {
            let tok = Int(p >> 16), skip = Int(p & 0xFFFF)
            let bytes = Array(vocab.tokenBytes(tok).dropFirst(skip))
            counts[String(decoding: bytes, as: UTF8.self)] = groups.plainCharacters[g]
        }
        // `b"c` and `\n` hold a quote or a backslash, `}` and `yz` are plain, `c` is one character,
        // and the tail of `aé` after `a` is the 2-byte é.
        #expect(counts == ["b\"c": 0, "c": 1, "yz": 2, "\\n": 0, "}": 1, "é": 1])
    }

    /// A string of 130 to 59,908 plain characters is split into blocks of 128 (130 = one block and 2,
    /// then 467 optional blocks and 2 more: the last block's end leaves a room of 2); 2,000 tokens of 2-5
    /// characters make more than a thousand distinct tails at each block end. Every mask equals the
    /// plain tokens that fit in the room left, plus the closing quote once the minimum is met; at the
    /// last block's end, tails of 3 or more characters must be refused although the block's caller
    /// also has a state with more room (another way to split the same text). With 5,000 words more than
    /// `SuffixGroups.bucketMinimum` tokens cross a block's end, so their plain tails are bucketed by
    /// length instead of grouped. Any plain character may follow a block, so the tails are the
    /// vocabulary's, shared by every block end with the same room (`VocabularyIndex.plainTails`).
    @Test(arguments: [2_000, 5_000])
    func masksStayExactAcrossBlockEnds(wordCount: Int) throws {
        let hundred = String(repeating: "a", count: 100)
        let words = (0..<wordCount).map { "b\($0)" }
        //                                 0    1     2        3..<wordCount + 3, then </s>
        let vocab = S.vocabulary(["a", "\"", hundred] + words)
        let index = try VocabularyIndex(vocab)
        let g = try CompiledGrammar(try Grammar(gbnf: #"""
            root ::= "\"" c{130,59908} "\""
            c ::= [^"\\\x00-\x1F]
            """#), vocabulary: index)
        #expect(g.keptRules.contains { $0.hasSuffix("{128}") }, "the repeat was not split into blocks: \(g.keptRules)")
        let chars = [1, 0, 100] + words.map { $0.count }
        var m = GrammarMatcher(g)
        try m.accept(token: 1)
        var used = 0
        func advance(to target: Int) throws {
            while target - used >= 100 { try m.accept(token: 2); used += 100 }
            while used < target { try m.accept(token: 0); used += 1 }
        }
        for stop in [0, 1, 123, 124, 125, 126, 127, 128, 129, 130, 251, 252, 253, 254, 255, 256, 257, 383, 384,
                     59_776, 59_777, 59_778, 59_779, 59_900, 59_902, 59_903, 59_904, 59_905, 59_906, 59_907, 59_908] {
            try advance(to: stop)
            let room = 59_908 - used
            var expected: [Int] = []
            for (id, n) in chars.enumerated() {
                if id == 1 { if used >= 130 { expected.append(id) } } else if n <= room { expected.append(id) }
            }
            #expect(try S.allowed(&m) == expected, "after \(used) characters")
        }
        // Every room's tails are made with the index, none on first use.
        #expect(index.plainTailsMade == Array(1..<VocabularyIndex.exactSliceBound))
    }
}
