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

    /// Per trie node: the bytes below it and how deep it goes, which is what lets the walk skip a subtree.
    @Test func nodeSummaries() throws {
        let index = try VocabularyIndex(S.vocabulary(["ab", "abc", "ab.", "x"]))
        let nodes = index.trie.nodes
        let a = try #require(nodes.firstIndex { $0.depth == 1 && $0.byte == UInt8(ascii: "a") })
        var expected = ASCIISet()
        for c in "bc." { expected.insert(c.asciiValue!) }
        #expect(index.classSlices.nodeBelow[a] == expected)
        #expect(index.classSlices.nodeDepthBelow[a] == 2)
        let x = try #require(nodes.firstIndex { $0.depth == 1 && $0.byte == UInt8(ascii: "x") })
        #expect(index.classSlices.nodeBelow[x] == ASCIISet())
        #expect(index.classSlices.nodeDepthBelow[x] == 0)
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

    /// What a first-visit check may spend scales with the trie it spares a walk of: a few tokens get
    /// the floor of 1/32 of Qwen2's budgets.
    @Test func checkBudgetsScaleWithTheTrie() throws {
        let index = try VocabularyIndex(S.vocabulary(Self.tokens))
        #expect(index.checkWorkShare == 1.0 / 32)
        #expect(index.checkBudget(GrammarMatcher.sliceCheckSteps) == 4_687)
        #expect(index.checkBudget(PlainTextProof.maxTotalWork) == 250_000)
    }
}
