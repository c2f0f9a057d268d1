import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

private typealias S = MaskTestSupport

/// The key position of an object that admits undeclared members reads every plain text (a declared
/// name, or any other), and the proof on NFA states (`PlainTextProof`) says so from one state: the
/// trie of the declared names with an escape at every prefix. `chooseSlice` asks that proof before the
/// checks on the deterministic automaton, which build a state per name prefix they explore (and on a
/// large trie fail at their budgets, or on a small one pass with the narrower 16-character slice).
/// The masks stay exact.
@Suite(.enabled(if: SharedData.present(for: "KeyPositionSliceTests"))) struct KeyPositionSliceTests {
    /// 40 declared names, integer values only: the only plain-text positions are keys.
    static let names = (0..<40).map { i in ["build", "lint", "test", "deploy", "cache"][i % 5] + "_" + ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"][i / 5] }
    static var schema: String {
        let members = names.map { #""\#($0)":{"type":"integer"}"# }.joined(separator: ",")
        return #"{"type":"object","properties":{\#(members)}}"#
    }

    /// At a key start and inside a name prefix the unbounded slice is taken, and the first mask builds
    /// only the deterministic states its walk needs. With the checks on the deterministic automaton
    /// first (as before), `{"` built 312 states (the failed checks' name prefixes; 65 now), and `{"b`
    /// and `{"build_` (8 names share the prefix) took the 16-character slice after building 130 and
    /// 152 states (45 and 77 now).
    @Test func keyPositionsTakeTheUnboundedSliceWithoutBuildingPrefixes() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema)
        for (prefix, maxBuilt) in [(#"{""#, 120), (#"{"b"#, 80), (#"{"build_"#, 110)] {
            let compiled = try CompiledGrammar(grammar, vocabulary: SharedVocabularies.qwen2)
            var m = GrammarMatcher(compiled)
            for id in try SharedVocabularies.qwen2Tokenizer.encode(prefix) { try m.accept(token: id) }
            let before = compiled.stateCount
            var mask: [UInt32] = []
            try m.fillNextTokenMask(into: &mask)
            let slices = compiled.cache.withLock { c in c.entries.values.compactMap { $0.slice?.maxCharacters } }
            #expect(slices == [Int.max], "\(prefix) took \(slices) instead of the unbounded slice")
            #expect(compiled.stateCount - before <= maxBuilt, "\(prefix) built \(compiled.stateCount - before) states")
            // A plain token far longer than 16 characters goes on with a key; so does `"` (an undeclared key).
            for text in ["________________________________", "\""] {
                let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
                #expect(ids.count == 1 && S.isSet(mask, ids[0]), "\(prefix) then \(text)")
            }
        }
    }

    /// Masks at and inside keys (declared, undeclared, longer than any name) against the brute-force
    /// reference.
    @Test func masksAgainstReference() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema)
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SeededGenerator(seed: 27)
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
