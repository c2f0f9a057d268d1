import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// An unanchored `pattern` of many alternatives is a search: each deterministic state of its string
/// stands for hundreds of NFA states (every word may start at every character). Such a state asks the
/// plain-text proof first, on NFA states, instead of building the deterministic states that plain
/// text leads to: masks stay exact and build only the states the text itself passes through.
@Suite struct SearchPatternSliceTests {
    /// 36 zone names like maskbench's `az_blacklist` items (`use1-az1`, ..., `euw2-az3`).
    static let words: [String] = {
        var out: [String] = []
        for region in ["use", "usw", "apne", "apse", "euc", "euw"] {
            for n in 1...2 { for z in 1...3 { out.append("\(region)\(n)-az\(z)") } }
        }
        return out
    }()
    static let schema = #"{"type":"array","items":{"type":"string","pattern":"("# + words.joined(separator: "|") + #")"}}"#

    @Test func searchStatesAreFewAndMasksExact() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema)
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SeededGenerator(seed: 5)
        let text = #"["use1-az1", "x apse2-az2 y"]"#
        let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
        try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 30, fullBudget: 300)
        #expect(check.mismatches == [])
        #expect(check.checks > 500)

        // The first eight masks again on a fresh compile, counting the deterministic states they build:
        // the text's own and those of the tokens walked outside the slice (quotes, escapes), 67. With
        // the deterministic slice checks first they built 546.
        let compiled = try CompiledGrammar(grammar, vocabulary: SharedVocabularies.qwen2)
        var m = GrammarMatcher(compiled)
        var mask = [UInt32]()
        let before = compiled.stateCount
        for id in ids.prefix(8) {
            try m.fillNextTokenMask(into: &mask)
            try m.accept(token: id)
        }
        #expect(compiled.stateCount - before < 150, "eight masks built \(compiled.stateCount - before) states")
    }
}
