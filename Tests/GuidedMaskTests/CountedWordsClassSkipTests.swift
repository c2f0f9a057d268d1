import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers
import GuidedTestSupport

/// A string of counted words (`^(?:\S+\s+){0,9}\S+$`; real schemas bound a free-text answer to 100):
/// inside a word that leaves a few more, every character may follow for the 8 or 16 bytes the class
/// check looks at (a space starts the next word), and every character but white space for good. The class slice keeps both
/// (`ClassSkip.narrower`), so the walk skips the subtrees of either; with the bounded one alone it went
/// down every longer token (1.5 ms on Qwen2). Masks against the brute-force reference.
@Suite(.enabled(if: SharedData.present(for: "CountedWordsClassSkipTests"))) struct CountedWordsClassSkipTests {
    static let schema = #"{"type":"string","pattern":"^(?:\\S+\\s+){0,9}\\S+$"}"#

    @Test func aWordTakesTheBoundedAndTheNarrowerClass() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema)
        let g = try CompiledGrammar(grammar, vocabulary: SharedVocabularies.qwen2)
        var m = GrammarMatcher(g)
        // The sixth word: four more may follow, as many as 8 bytes hold (` a a a a`), not 16.
        try m.accept(bytes: Array(#""one two three four five six"#.utf8))
        let state = m.engine.nodes[Int(m.sets[Int(m.current.setStart)])].state
        let slice = m.classSlice(state: state)
        let found = try #require(slice)
        // Every printable character but the ASCII space (it leads to the next word), the quote and the
        // backslash, and every non-ASCII one for the bounded class (its white space starts a word too).
        #expect(found.skip.characters.count == 93)
        #expect(found.skip.characters.holdsWide)
        #expect(found.skip.maxLength == 8)
        let spaceless = found.skip.narrower
        #expect(spaceless.count == 93 && spaceless.high & ASCIISet.wideBit != 0 && spaceless.high & ASCIISet.spaceBit == 0)
        #expect(found.skip.narrowerMaxLength == SharedVocabularies.qwen2.classSlices.longestMember(spaceless))
        #expect(found.narrowerMembers != nil)
    }

    @Test func masksAgainstReference() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema)
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 46)
        let text = "\"one two\u{3000}three four, five six\u{2003}seven eight nine ten\""
        let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
        try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 400)
        #expect(check.mismatches == [])
        #expect(check.checks > 3_000)
    }
}
