import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

private typealias S = MaskTestSupport

/// A state that loops over a class of ASCII characters (`[a-z0-9]+`, a counted `[a-z]{1,20}`) takes the
/// class's tokens at once (`ClassSlices`) and its walk skips the subtrees made of them. The masks stay
/// exact: loop, 16 and 8 bytes of room, no room.
@Suite struct ClassSliceTests {
    //                            0     1    2     3       4      5    6      7      8
    static let tokens = ["\"", "a", "ab", "abc9", "a.b", "A", "ab-", "x\"", "abcdefghijklmnopqrstu",
    //                    9    10    11   12   13          14
                         "é", "9z", ".", "-", "abcdefgh", "abcdefghijkl"]

    @Test func aLoopOverLettersAndDigitsTakesItsClass() throws {
        let index = try VocabularyIndex(S.vocabulary(Self.tokens))
        let g = try CompiledGrammar(try Grammar(gbnf: #"root ::= "\"" [a-z0-9]+ ("." [a-z0-9]+)* "\"""#), vocabulary: index)
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        #expect(try S.allowed(&m) == [1, 2, 3, 4, 7, 8, 10, 13, 14])
        #expect(index.classSlices.setCount == 1, "the position after the quote took no class slice")
        try m.accept(token: 4)
        // After `a.b`: on in the loop, or a dot, or the end.
        #expect(try S.allowed(&m) == [0, 1, 2, 3, 4, 7, 8, 10, 11, 13, 14])
    }

    @Test func aCountedLengthTakesTheRoomItHas() throws {
        let index = try VocabularyIndex(S.vocabulary(Self.tokens))
        let g = try CompiledGrammar(try Grammar(gbnf: #"root ::= "\"" [a-z]{1,20} "\"""#), vocabulary: index)
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        // 20 letters of room: every letters-only token but the 21-letter one.
        #expect(try S.allowed(&m) == [1, 2, 7, 13, 14])
        try m.accept(token: 14)
        // 8 left.
        #expect(try S.allowed(&m) == [0, 1, 2, 7, 13])
        try m.accept(token: 13)
        // None left: only the closing quote.
        #expect(try S.allowed(&m) == [0])
        #expect(index.classSlices.setCount == 2, "16 and 8 bytes of room are two member sets")
    }

    /// The members of a class are the tokens made only of its characters, up to the length; special
    /// tokens and tokens with a byte outside printable ASCII never are.
    @Test func membersOfAClass() throws {
        let index = try VocabularyIndex(S.vocabulary(Self.tokens))
        var letters = ASCIISet()
        for b in UInt8(ascii: "a")...UInt8(ascii: "z") { letters.insert(b) }
        let bits = try #require(index.classSlices.members(letters, maxLength: 8))
        #expect(S.ids(in: Array(UnsafeBufferPointer(start: bits, count: index.maskWords))) == [1, 2, 13])
        #expect(index.classSlices.members(letters, maxLength: 8) == bits)
    }

    /// Per trie node: the characters of the tokens in its subtree and how deep it goes, which is what
    /// lets the walk skip a subtree.
    @Test func nodeSummaries() throws {
        let index = try VocabularyIndex(S.vocabulary(["ab", "abc", "ab.", "x", "é", "éz"]))
        let nodes = index.trie.nodes
        let a = try #require(nodes.firstIndex { $0.depth == 1 && $0.byte == UInt8(ascii: "a") })
        var expected = ASCIISet()
        for c in "abc." { expected.insert(c.asciiValue!) }
        #expect(index.classSlices.nodeBelow[a] == expected)
        #expect(index.classSlices.nodeDepthBelow[a] == 2)
        let x = try #require(nodes.firstIndex { $0.depth == 1 && $0.byte == UInt8(ascii: "x") })
        var justX = ASCIISet()
        justX.insert(UInt8(ascii: "x"))
        #expect(index.classSlices.nodeBelow[x] == justX)
        #expect(index.classSlices.nodeDepthBelow[x] == 0)
        // `é` is C3 A9: the lead byte's node has no token of its own, its subtree `é` and `éz`.
        let lead = try #require(nodes.firstIndex { $0.depth == 1 && $0.byte == 0xC3 })
        var wideZ = ASCIISet()
        wideZ.insert(UInt8(ascii: "z"))
        wideZ.high |= ASCIISet.wideBit
        #expect(index.classSlices.nodeBelow[lead] == wideZ)
        #expect(index.classSlices.nodeDepthBelow[lead] == 2)
    }

    /// A token's characters: printable ASCII as themselves, non-ASCII characters of plain text (whole, or
    /// begun at the token's end) as the wide bit, anything else (a control byte, a character begun
    /// before the token, a line separator, an overlong form) as the other bit.
    @Test func tokenCharacters() {
        func characters(_ bytes: [UInt8]) -> ASCIISet { bytes.withUnsafeBufferPointer { ClassSlices.characters(of: $0) } }
        var a = ASCIISet()
        a.insert(UInt8(ascii: "a"))
        var wide = ASCIISet()
        wide.high |= ASCIISet.wideBit
        var aWide = a
        aWide.high |= ASCIISet.wideBit
        var other = ASCIISet()
        other.insertAny(0)
        var aOther = a
        aOther.insertAny(0)
        #expect(characters(Array("a".utf8)) == a)
        #expect(characters(Array("aé".utf8)) == aWide)
        #expect(characters([0x61, 0xE6, 0x97]) == aWide, "a character begun at the end")
        #expect(characters([0xE6]) == wide)
        #expect(characters([0xA9]) == other, "a character begun before the token")
        #expect(characters([0x61, 0xA9]) == aOther)
        #expect(characters(Array("\u{2028}".utf8)) == other, "a line separator is not plain text")
        #expect(characters([0xE2, 0x80]) == wide, "begun: it may still become another character")
        #expect(characters([0x0A]) == other)
        #expect(characters([0xC0, 0x80]) == other, "an overlong form is no character")
    }

    /// A search for a word in text without `Z` (`[^"\\Z]* [A-G] B [^"\\Z]*`): every character but `A`-`G`
    /// leads back to the search's start, so the class is printable text but those seven and `Z` (too
    /// many for a gap slice; with `Z` allowed no slice would be needed, the start reading all text) and
    /// the quote and backslash, with every non-ASCII character, and tokens made of those, whole or begun
    /// characters among them, are allowed at once. Without `é` too, no non-ASCII character joins the
    /// class. The masks equal what `accept` takes, token by token, at every position.
    @Test(arguments: [(#"[^"\\Z]*"#, true), (#"[^"\\Zé]*"#, false)])
    func aSearchInFreeTextTakesTheWideClass(text: String, wide: Bool) throws {
        let tokens: [[UInt8]] = [
            Array("\"".utf8), Array("a".utf8), Array("é".utf8), [0xC3], [0xA9], Array("aé".utf8) + [0xC3],
            Array("A".utf8), Array("AB".utf8), Array("xAB\"".utf8), Array("\u{2028}".utf8), [0x0A],
            Array("日本".utf8), [0xE6, 0x97], Array("B".utf8), Array("Aé".utf8), [0x97, 0xA5], Array("\\".utf8),
            Array("aZ".utf8),
        ]
        let vocab = TokenVocabulary(tokens: tokens + [Array("</s>".utf8)], specialTokenIDs: [tokens.count],
                                    eosTokenIDs: [tokens.count], size: nil)
        let index = try VocabularyIndex(vocab)
        let g = try CompiledGrammar(try Grammar(gbnf: #"root ::= "\"" "# + text + #" [A-G] "B" "# + text + #" "\"""#),
                                    vocabulary: index)
        var m = GrammarMatcher(g)
        // Along `"`, `a`, `B`, `A`, `日本`, `AB`, `日本`: each mask against `accept` of every token.
        var masks: [[Int]] = [], taken: [[Int]] = []
        for next in [0, 1, 13, 6, 11, 7, 11] {
            masks.append(try S.allowed(&m))
            var ids: [Int] = []
            for id in 0...tokens.count {
                var probe = m.fork()
                if (try? probe.accept(token: id)) != nil { ids.append(id) }
            }
            taken.append(ids)
            try m.accept(token: next)
        }
        #expect(masks == taken)
        // After the opening quote: every token but the quote (no word yet), the two that begin inside a
        // character, the backslash and `Z` (and without `é`, the four holding it); the separator and the
        // newline are read by the negated class.
        #expect(masks[1] == (wide ? [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] : [1, 3, 6, 7, 8, 9, 10, 11, 12, 13]))
        let classes = index.classSlices.classesMade
        #expect(classes.filter(\.holdsWide).count == (wide ? 1 : 0))
        #expect(classes.map(\.count).contains(86), "94 printable characters of plain text but A-G and Z")
    }

    /// The check looks no deeper than the longest token over the class: in a counted length of 200
    /// with tokens of at most 3 letters, it builds the states of three positions, as the walk does,
    /// not the 64 of a loop check and 16 of a bounded one (a small vocabulary's masks must not pay for
    /// states no token reaches).
    @Test func theCheckStopsAtTheLongestMember() throws {
        //                                            0    1    2     3      4    5
        let index = try VocabularyIndex(S.vocabulary(["\"", "a", "ab", "abc", "x", "9"]))
        var letters = ASCIISet()
        for b in UInt8(ascii: "a")...UInt8(ascii: "z") { letters.insert(b) }
        #expect(index.classSlices.longestMember(letters) == 3)
        var digits = ASCIISet()
        digits.insert(UInt8(ascii: "0"))
        #expect(index.classSlices.longestMember(digits) == 0)
        let g = try CompiledGrammar(try Grammar(gbnf: #"root ::= "\"" [a-z]{1,200} "\"""#), vocabulary: index)
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        #expect(try S.allowed(&m) == [1, 2, 3, 4])
        #expect(index.classSlices.setCount == 1)
        #expect(g.automaton.statistics.states == 5, "the start, the quote, 3 positions")
    }

    /// One pass answers a class with every non-ASCII character, with all but their white space, and
    /// with none: each of the three is the longest token of that class, whichever is asked first (the
    /// pass skips a token no longer than the narrowest's longest so far, which must not hide a longer
    /// one from the wider two).
    @Test(arguments: [[0, 1, 2], [2, 1, 0], [1, 2, 0]])
    func theLongestMemberOfEachWidth(order: [Int]) throws {
        let index = try VocabularyIndex(S.vocabulary(["ab", "abé", "a\u{3000}bb", "abababab", "é\u{3000}", "x"]))
        var ascii = ASCIISet()
        for b in UInt8(ascii: "a")...UInt8(ascii: "b") { ascii.insert(b) }
        var all = ascii, spaceless = ascii
        all.high |= ASCIISet.wideBit | ASCIISet.spaceBit
        spaceless.high |= ASCIISet.wideBit
        // "abé" is 4 bytes, "a\u{3000}bb" 6 (an ideographic space), "abababab" 8: the longest is 8 at every
        // width, so the narrower ones are asked on a class whose longest token has no wide character.
        let classes = [all, spaceless, ascii]
        let expected = [8, 8, 8]
        for k in order { #expect(index.classSlices.longestMember(classes[k]) == expected[k]) }
        // Without "abababab": each width has its own longest, and the widest class's comes first in the
        // table, so the narrower ones are found among tokens shorter than it.
        let narrow = try VocabularyIndex(S.vocabulary(["a\u{3000}bb", "abé", "ab", "é\u{3000}", "x"]))
        for k in order { #expect(narrow.classSlices.longestMember(classes[k]) == [6, 4, 2][k]) }
    }

    /// What a first-visit check may spend scales with the trie it spares a walk of: a few tokens get
    /// the floor of 1/32 of Qwen2's budgets.
    @Test func checkBudgetsScaleWithTheTrie() throws {
        let index = try VocabularyIndex(S.vocabulary(Self.tokens))
        #expect(index.checkWorkShare == 1.0 / 32)
        #expect(index.checkBudget(GrammarMatcher.sliceCheckSteps) == 4_687)
        #expect(index.checkBudget(PlainTextProof.maxTotalWork) == 250_000)
    }
}
