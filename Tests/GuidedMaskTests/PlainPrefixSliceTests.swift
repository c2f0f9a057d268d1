import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

/// Tokens that end inside a plain character (a byte-level BPE's pieces of CJK text) belong to the
/// unbounded slice: a state that reads every plain string reads every prefix of one. The slices that
/// share the unbounded slice's trie of other tokens (exact room, gap) do not hold them, so they must
/// still find them in that trie.
@Suite struct PlainPrefixSliceTests {
    // 0 `"`, 1 `a`, 2 `é`, 3 C3 (é begun), 4 `a` C3, 5 A9 (é's last byte), 6 E4 B8 (中 begun), 7 AD,
    // 8 E2 80 (begins U+2027 as well as the line separators), 9 `a"`, 10 C3 `"` (never UTF-8), 11 </s>.
    static let tokens: [[UInt8]] = [[0x22], [0x61], [0xC3, 0xA9], [0xC3], [0x61, 0xC3], [0xA9], [0xE4, 0xB8], [0xAD],
                                    [0xE2, 0x80], [0x61, 0x22], [0xC3, 0x22], Array("</s>".utf8)]
    static let vocab = TokenVocabulary(tokens: tokens, specialTokenIDs: [11], eosTokenIDs: [11])
    static let begun = [3, 4, 6, 8]

    @Test func tokensEndingInsideACharacter() {
        #expect(TokenSlice.plainPrefixTokens(Self.vocab) == Self.begun)
    }

    /// An unbounded string: the begun tokens come from the slice, not from the walk of its trie.
    @Test func unboundedStringTakesThemFromTheSlice() throws {
        let g = try MaskTestSupport.compiled(gbnf: #"root ::= "\"" [^"\\\x00-\x1F]* "\"""#, Self.vocab)
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        let inside = [0, 1, 2, 3, 4, 6, 8, 9]
        #expect(try MaskTestSupport.allowed(&m) == inside)
        try m.accept(token: 4)
        #expect(try MaskTestSupport.allowed(&m) == [5, 7])
        try m.accept(token: 5)
        #expect(try MaskTestSupport.allowed(&m) == inside)
        let entries = g.cache.withLock { c in c.entries.values.filter { $0.slice != nil } }
        #expect(!entries.isEmpty, "no state inside the string took a slice")
        for e in entries {
            #expect(Self.begun.allSatisfy { MaskTestSupport.isSet(Array(e.slice!.members), $0) })
            #expect(Array(e.acceptedList).allSatisfy { !Self.begun.contains(Int($0)) },
                    "begun tokens listed beyond the slice: \(Array(e.acceptedList))")
        }
    }

    /// A string of at most two characters: its positions take exact-room slices, which share the trie of
    /// non-plain tokens; the begun tokens must be walked there, each counted as one more character.
    @Test func exactRoomSlicesStillWalkThem() throws {
        let g = try MaskTestSupport.compiled(gbnf: #"root ::= "\"" [^"\\\x00-\x1F]{0,2} "\"""#, Self.vocab)
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        #expect(try MaskTestSupport.allowed(&m) == [0, 1, 2, 3, 4, 6, 8, 9])
        try m.accept(token: 1)
        #expect(try MaskTestSupport.allowed(&m) == [0, 1, 2, 3, 6, 8, 9])
        try m.accept(token: 3)
        #expect(try MaskTestSupport.allowed(&m) == [5, 7])
        try m.accept(token: 5)
        #expect(try MaskTestSupport.allowed(&m) == [0])
    }
}
