import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

private typealias S = MaskTestSupport

/// A regex `.` matches every character but the line terminators, so string contents built from it
/// cannot read U+2028 or U+2029. Slices leave those two out of plain text, so such contents still take
/// a slice (and the tokens holding one are walked, hence rejected exactly).
@Suite struct LineSeparatorSliceTests {
    @Test func lineSeparatorsAreNotPlainText() {
        func count(_ s: String) -> Int {
            let bytes = Array(s.utf8)
            return TokenSlice.characterCount(bytes, 0, bytes.count)
        }
        // U+2027 (E2 80 A7) and € (E2 82 AC) share the lead byte and are plain; U+2028/U+2029 are not.
        #expect(count("a\u{2027}\u{20AC}") == 3)
        #expect(count("\u{2028}") == 0)
        #expect(count("x\u{2029}") == 0)
        #expect(count("\u{2030}") == 1)
    }

    /// `"v` then up to 9 characters other than line terminators, then `"`, as a JSON Schema `pattern`
    /// `^v.*$` with `maxLength: 10` lowers. Each position takes a slice, and the masks are exact.
    @Test func dotContentsTakeASliceAndStayExact() throws {
        //                                 0     1    2    3           4             5           6     7: </s>
        let vocab = S.vocabulary(["\"v", "a", "ab", "\u{2028}", "x\u{2029}", "\u{2027}", "\""])
        let g = try S.compiled(gbnf: #"root ::= "\"v" [^"\\\x00-\x1F\u2028\u2029]{0,9} "\"""#, vocab)
        var m = GrammarMatcher(g)
        // A lone quote is a prefix too (masks check prefixes, not what the vocabulary can finish).
        #expect(try S.allowed(&m) == [0, 6])
        try m.accept(token: 0)
        #expect(try S.allowed(&m) == [1, 2, 5, 6])
        for _ in 0..<4 { try m.accept(token: 2) }
        // Eight characters written, one left: "ab" no longer fits.
        #expect(try S.allowed(&m) == [1, 5, 6])
        try m.accept(token: 5)
        #expect(try S.allowed(&m) == [6])
        let slices = g.cache.withLock { c in c.entries.values.filter { $0.slice != nil }.count }
        #expect(slices >= 2, "states inside the string took \(slices) slices")
    }
}
