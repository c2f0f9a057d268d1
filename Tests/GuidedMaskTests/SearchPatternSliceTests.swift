import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers
import GuidedTestSupport

/// An unanchored `pattern` of many alternatives is a search: each deterministic state of its string
/// stands for hundreds of NFA states (every word may start at every character). Such a state asks the
/// plain-text proof first, on NFA states, instead of building the deterministic states that plain
/// text leads to: masks stay exact and build only the states the text itself passes through.
@Suite(.enabled(if: SharedData.present(for: "SearchPatternSliceTests"))) struct SearchPatternSliceTests {
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
        var rng = SplitMix64Generator(seed: 5)
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

/// The first key position of an object with 150 optional declared names and undeclared members
/// allowed (like maskbench's o39532): the deterministic state there inside the undeclared member stands
/// for dozens of NFA states (a name trie), so it asks the proof first instead of building a state per
/// name prefix in checks that fail.
@Suite(.enabled(if: SharedData.present(for: "KeyTrieSliceTests"))) struct KeyTrieSliceTests {
    static let names: [String] = (0..<150).map { i in
        let a = Character(Unicode.Scalar(UInt8(97 + i % 26))), b = Character(Unicode.Scalar(UInt8(97 + (i * 7) % 26)))
        return "\(a)\(b)\(i % 5 == 0 ? "Product" : "Item")\(i)"
    }
    static let schema = #"{"type":"object","properties":{"# + names.map { #""\#($0)":{"type":"integer"}"# }.joined(separator: ",") + "}}"

    @Test func firstKeyBuildsFewStatesAndIsExact() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema)
        let compiled = try CompiledGrammar(grammar, vocabulary: SharedVocabularies.qwen2)
        var m = GrammarMatcher(compiled)
        try m.accept(bytes: Array(#"{""#.utf8))
        let before = compiled.stateCount
        var mask = [UInt32]()
        try m.fillNextTokenMask(into: &mask)
        // 91 with the proof first; 376 when the deterministic checks ran first (threshold 256, checked).
        #expect(compiled.stateCount - before < 150, "the first key mask built \(compiled.stateCount - before) states")
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 3)
        let text = #"{"dvItem3": 1, "other": [true], "jlItem9": 2}"#
        let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
        try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 200, fullBudget: 500)
        #expect(check.mismatches == [])
    }
}
