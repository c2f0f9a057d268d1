import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers
import GuidedTestSupport

/// A string state whose entry holds more than `MaskCacheEntry.mergedListThreshold` accepted tokens beyond
/// its slice keeps slice and extra tokens as one bitmask (one copy per mask instead of setting each listed
/// token). Its masks must still equal the brute-force reference's, and such an entry must exist on the
/// way, or the test checks nothing new.
@Suite(.enabled(if: SharedData.present(for: "MergedSliceEntryTests"))) struct MergedSliceEntryTests {
    @Test func mergedEntriesMaskLikeTheReference() throws {
        let grammar = try JSONSchemaCompiler.compile(text: #"{"type":"object","properties":{"note":{"type":"string"},"tags":{"type":"array","items":{"type":"string","maxLength":12}}}}"#)
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 91)
        for text in [#"{"note": "a \"quoted\" word\n\tand ünïcödé", "tags": ["x", "yz\\", "twelve chars"]}"#,
                     #"{"tags": ["", "a\u0041b"], "note": "plain text that goes on for a while, with commas, and more"}"#] {
            let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
            try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 400)
        }
        #expect(check.mismatches == [])
        #expect(check.checks > 10_000)
        let merged = check.compiled.cacheDescription().filter { $0.hasSuffix("(slice merged)") }
        #expect(!merged.isEmpty, "no state kept a merged slice entry: \(check.compiled.cacheDescription())")
    }
}
