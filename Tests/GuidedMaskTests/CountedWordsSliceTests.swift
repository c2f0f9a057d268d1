import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers
import GuidedTestSupport

/// A string of counted words (`^(?:\S+\s+){0,99}\S+$`, as in G-Cloud schemas): inside a word the text
/// stays in its state but for one way out (`\s` to the next word). `chooseSlice` takes the 16-character
/// slice there by the deterministic checks and asks no proof on NFA states: asked first (the state
/// stands for more than 24 NFA states), the proof followed the chain of words to the bound and failed,
/// 1-9 ms at each string's first word. The masks along such strings, up to the bound, must equal the
/// brute-force reference's whichever check decides.
@Suite(.enabled(if: SharedData.present(for: "CountedWordsSliceTests"))) struct CountedWordsSliceTests {
    static func schema(words: Int) -> String { #"{"type":"string","pattern":"^(?:\\S+\\s+){0,\#(words)}\\S+$"}"# }

    @Test func aWordTakesTheSixteenCharacterSliceWithoutTheProof() throws {
        let g = try CompiledGrammar(JSONSchemaCompiler.compile(text: Self.schema(words: 99)), vocabulary: SharedVocabularies.qwen2)
        var m = GrammarMatcher(g)
        for t in try SharedVocabularies.qwen2Tokenizer.encode(#""This is"#) { try m.accept(token: t) }
        let state = m.engine.nodes[Int(m.sets[Int(m.current.setStart)])].state
        let targets = m.textTargets(state)
        #expect(targets == (2, true))
        #expect(g.automaton.nfaSetSize(state) > GrammarMatcher.proofFirstSetSize)
        let chosen = m.chooseSlice(state: state)
        let choice = try #require(chosen)
        #expect(choice.slice === g.vocabulary.slices[1])
        #expect(g.automaton.plainTextExplorations == 0)
    }

    /// Masks against the reference along a text that reaches the bound of 12 words and goes past it
    /// (the words after the twelfth are rejected, the closing quote stays allowed).
    @Test func masksAgainstReference() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema(words: 11))
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 40)
        let text = #""One two  three\tfour five six seven eight nine ten eleven twelve thirteen""#
        let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
        try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 400)
        try check.walk(steps: 40, rng: &rng, sample: 400)
        #expect(check.mismatches == [])
        #expect(check.checks > 5_000)
    }
}
