import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

private typealias S = MaskTestSupport

/// `\S`: a state that reads every character but white space (a `pattern` of `^\S+$`, the first
/// character of a counted word) takes the class of non-space ASCII with the non-ASCII characters that
/// are not white space (`ASCIISet.wideBit` without the `spaceBit`), so the tokens of non-ASCII text
/// are allowed at once instead of walked. The text positions (`SliceUTF8.nextSpaceless`) and the
/// tokens' classes must agree with the grammar's `\s` exactly.
@Suite struct SpacelessClassTests {
    /// The non-ASCII white space: ECMA-262's `\s` outside ASCII, and U+0085 (Python's).
    static let spaces = Set<UInt32>([0x85, 0xA0, 0x1680, 0x202F, 0x205F, 0x3000, 0xFEFF] + Array(0x2000...0x200A))

    /// Every non-ASCII scalar, whole and cut short, through both text automata: the spaceless one reads
    /// a character exactly when the plain one does and it is not white space, and reads every proper
    /// prefix of every character the plain one reads (each can still become a character that is not
    /// white space).
    @Test func spacelessPositionsLeaveOutExactlyTheWhiteSpace() {
        func run(_ bytes: [UInt8], _ next: (UInt8, UInt8) -> UInt8) -> UInt8 {
            var u = SliceUTF8.boundary
            for b in bytes where u != SliceUTF8.reject { u = next(u, b) }
            return u
        }
        var checked = 0
        for value in UInt32(0x80)...UInt32(0x10FFFF) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(scalar).utf8)
            let plain = run(bytes, SliceUTF8.next)
            let spaceless = run(bytes, SliceUTF8.nextSpaceless)
            let expected = plain == SliceUTF8.boundary && !Self.spaces.contains(value) ? SliceUTF8.boundary : SliceUTF8.reject
            if spaceless != expected { Issue.record("U+\(String(value, radix: 16)): \(spaceless)"); return }
            for cut in 1..<bytes.count where plain == SliceUTF8.boundary {
                let prefix = Array(bytes.prefix(cut))
                if run(prefix, SliceUTF8.nextSpaceless) == SliceUTF8.reject || run(prefix, SliceUTF8.nextSpaceless) == SliceUTF8.boundary {
                    Issue.record("prefix of U+\(String(value, radix: 16))"); return
                }
            }
            checked += 1
        }
        #expect(checked == 0x10FFFF - 0x7F - 2048)
    }

    /// A token holding a white space character whole gets the `spaceBit` beside the `wideBit`; one that
    /// stops inside one does not (it may still become another character).
    @Test func tokenCharactersMarkWhiteSpace() {
        func characters(_ text: [UInt8]) -> ASCIISet { text.withUnsafeBufferPointer { ClassSlices.characters(of: $0) } }
        var a = ASCIISet()
        a.insert(UInt8(ascii: "a"))
        var aWide = a
        aWide.high |= ASCIISet.wideBit
        var aWideSpace = aWide
        aWideSpace.high |= ASCIISet.spaceBit
        #expect(characters(Array("aé".utf8)) == aWide)
        #expect(characters(Array("a\u{A0}".utf8)) == aWideSpace)
        #expect(characters(Array("a\u{3000}é".utf8)) == aWideSpace)
        #expect(characters(Array("a".utf8) + [0xE3, 0x80]) == aWide, "U+3000 begun: it may become U+3001")
        #expect(characters(Array("a\u{2010}".utf8)) == aWide, "a hyphen after E2 80")
        #expect(characters(Array("a\u{205F}".utf8)) == aWideSpace)
    }

    //                            0     1    2     3           4          5       6             7
    static let tokens: [[UInt8]] = [Array("\"".utf8), Array("a".utf8), Array("é".utf8), Array("a\u{A0}".utf8), Array("\u{3000}".utf8),
    //                              8             9       10                11         12            13
                                    Array("日本".utf8), [0xE3, 0x80], [0xC2], Array("ab cd".utf8), Array(" ".utf8), Array("a\"".utf8),
                                    Array("\u{2010}x".utf8), Array("a\u{85}".utf8), Array("\u{FEFF}".utf8)]

    /// `[^\s"\\]+` spelled out (ECMA-262's `\s`): every token but the white space ones, the quote and
    /// `ab cd` is allowed after the opening quote, the class slice made is the spaceless one, and the
    /// masks equal what `accept` takes, token by token, along a string.
    @Test func aLoopOverNonSpaceTakesTheSpacelessClass() throws {
        let vocab = TokenVocabulary(tokens: Self.tokens + [Array("</s>".utf8)], specialTokenIDs: [Self.tokens.count],
                                    eosTokenIDs: [Self.tokens.count], size: nil)
        let index = try VocabularyIndex(vocab)
        let nonSpace = #"[^"\\\x00-\x20\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]"#
        let g = try CompiledGrammar(try Grammar(gbnf: #"root ::= "\"" "# + nonSpace + #"+ "\"""#), vocabulary: index)
        var m = GrammarMatcher(g)
        var masks: [[Int]] = [], taken: [[Int]] = []
        for next in [0, 1, 5, 2] {
            masks.append(try S.allowed(&m))
            var ids: [Int] = []
            for id in 0...Self.tokens.count {
                var probe = m.fork()
                if (try? probe.accept(token: id)) != nil { ids.append(id) }
            }
            taken.append(ids)
            try m.accept(token: next)
        }
        #expect(masks == taken)
        // U+0085 is not ECMA-262 white space: `a` + U+0085 is read, but not a member (walked).
        #expect(masks[1] == [1, 2, 5, 6, 7, 10, 11, 12])
        let classes = index.classSlices.classesMade
        #expect(classes.contains { $0.holdsWide && $0.high & ASCIISet.spaceBit == 0 }, "no spaceless class was made")
        #expect(!classes.contains { $0.high & ASCIISet.spaceBit != 0 })
    }
}
