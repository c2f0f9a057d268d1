import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers
import GuidedTestSupport

private typealias S = MaskTestSupport

/// Keys of an object whose `patternProperties` pattern matches all but finitely many single-line names
/// (JSON Schema Store's web-types: `^(?!pattern$).*$`): a name trie excluding the declared and listed
/// names, names with a line terminator apart. Masks inside and after such keys, against the brute-force
/// reference.
@Suite(.enabled(if: SharedData.present(for: "FinitePatternKeyMaskTests"))) struct FinitePatternKeyMaskTests {
    static let schema = #"{"type":"object","properties":{"elements":{"type":"array"},"events":{"type":"array"}},"patternProperties":{"^(?!pattern$).*$":{"type":["array","string"]}}}"#

    @Test func keyMasksAgainstReference() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema)
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 45)
        for text in [#"{"elements": [], "pattern": {"x": 1}, "patterns": "p", "line\nbreak": 3}"#,
                     #"{"events": ["e"], "even": "t", "évent": [1]}"#] {
            let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
            try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 400)
        }
        #expect(check.mismatches == [])
        #expect(check.checks > 5_000)
        // `pattern` is in no part: any value. `patterns` is: not a number.
        var m = GrammarMatcher(try CompiledGrammar(grammar, vocabulary: SharedVocabularies.qwen2))
        try m.accept(bytes: Array(#"{"pattern": 1, "patterns": "#.utf8))
        #expect(throws: (any Error).self) { try m.accept(bytes: Array("1".utf8)) }
    }
}
