import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers
import GuidedTestSupport


/// The key position of an object that admits undeclared members reads every plain text (a declared
/// name, or any other): the slice checks (`chooseSlice`, `PlainTextProof`) decide it on a trie of 40
/// declared names with an escape at every prefix. The masks at and inside keys must equal the
/// brute-force reference's whichever check decides (docs/performance-history.md, "Tail (#27)", tried another
/// order of those checks).
@Suite(.enabled(if: SharedData.present(for: "KeyPositionSliceTests"))) struct KeyPositionSliceTests {
    /// 40 declared names, integer values only: the only plain-text positions are keys.
    static let names = (0..<40).map { i in ["build", "lint", "test", "deploy", "cache"][i % 5] + "_" + ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"][i / 5] }
    static var schema: String {
        let members = names.map { #""\#($0)":{"type":"integer"}"# }.joined(separator: ",")
        return #"{"type":"object","properties":{\#(members)}}"#
    }

    /// Masks at and inside keys (declared, undeclared, longer than any name) against the brute-force
    /// reference.
    @Test func masksAgainstReference() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema)
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 27)
        for text in [#"{"build_alpha": 1, "lint_zeta": -2, "other": 3}"#,
                     #"{"deploy_theta": 0, "build_alphabet_soup_and_more_text_here": 4, "é": 5}"#,
                     #"{"cache_eta": 7, "test_delta": 8}"#] {
            let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
            try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 400)
        }
        #expect(check.mismatches == [])
        #expect(check.checks > 10_000)
    }
}
