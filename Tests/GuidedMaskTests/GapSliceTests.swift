import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

private typealias S = MaskTestSupport

/// A string position that reads every plain text except a few ASCII characters (`[^-]*` of a
/// `pattern`) takes a gap slice: the plain tokens without those characters are allowed at once, the
/// ones holding one are walked in their own trie. The masks stay exact.
@Suite struct GapSliceTests {
    //                            0      1    2     3      4     5     6     7        8          9    10   11
    static let tokens = ["\"x-", "a", "ab", "a-b", "--", "b\"", "-\"", "c-d-e", "c-d-e-f", "\"", "é", "-"]
    static let grammar = #"root ::= "\"x-" [^"\\\x00-\x1F\u2028\u2029-]* ("-" [^"\\\x00-\x1F\u2028\u2029-]+){0,2} "\"""#

    @Test func positionsOutsideDashesTakeAGapSliceAndStayExact() throws {
        let g = try S.compiled(gbnf: Self.grammar, S.vocabulary(Self.tokens))
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        // `--` and `-"` leave a group empty; c-d-e-f opens a third group.
        #expect(try S.allowed(&m) == [1, 2, 3, 5, 7, 9, 10, 11])
        try m.accept(token: 3)
        // In the first group: c-d-e would open a third.
        #expect(try S.allowed(&m) == [1, 2, 3, 5, 9, 10, 11])
        try m.accept(token: 3)
        // Two groups written: no dash any more.
        #expect(try S.allowed(&m) == [1, 2, 5, 9, 10])
        let gaps = g.cache.withLock { c in c.entries.values.filter { $0.slice?.gap != nil }.count }
        #expect(gaps >= 1, "no state took a gap slice")
    }

    /// The gap slice of a vocabulary is made once per excluded set: its members are the plain tokens
    /// without the characters, its own trie holds the plain tokens with one.
    @Test func gapSliceMembers() throws {
        let index = try VocabularyIndex(S.vocabulary(Self.tokens))
        var dash = ASCIISet()
        dash.insert(UInt8(ascii: "-"))
        let slice = try #require(index.gapSlice(excluding: dash))
        #expect(S.ids(in: Array(slice.members)) == [1, 2, 10])
        #expect(Set(try #require(slice.gap).nodes.filter(\.hasToken).map { Int($0.token) }) == [3, 4, 7, 8, 11])
        // The plain tokens holding each character (those with a quote are not plain text).
        func holding(_ c: Character) -> Int { index.plainTokensHolding[Int(c.asciiValue!) - 0x20] }
        #expect([holding("-"), holding("a"), holding("f"), holding("\""), holding("z")] == [5, 3, 1, 0, 0])
        #expect(index.gapSlice(excluding: dash) === slice)
    }

    /// Every slice reads all printable characters of plain text but a gap slice's few excluded ones:
    /// with 6 rejected the gap slice still applies, with 7 no slice is checked for (`chooseSlice`
    /// stops at once, `rejectsPrintableText`).
    @Test(arguments: [("ABCDEF", 6, true), ("ABCDEFG", 7, false), ("", 0, true)])
    func slicesAreNotCheckedWhereMoreThanAGapIsRejected(excluded: String, rejected: Int, slice: Bool) throws {
        let index = try VocabularyIndex(S.vocabulary(Self.tokens))
        let g = try CompiledGrammar(try Grammar(gbnf: #"root ::= "\"" [^"\\"# + excluded + #"]* "\"""#), vocabulary: index)
        var m = GrammarMatcher(g)
        try m.accept(token: 9)
        let state = m.engine.nodes[Int(m.sets[Int(m.current.setStart)])].state
        #expect(m.rejectsPrintableText(state) == rejected)
        #expect((m.chooseSlice(state: state) != nil) == slice)
    }
}
