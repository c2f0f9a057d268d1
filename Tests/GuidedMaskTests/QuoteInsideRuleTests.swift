import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers
import GuidedTestSupport

private typealias S = MaskTestSupport

/// A `format` used in several places is one shared rule, called. Its body ends with the closing
/// quote, so inside the text no state of it can return to the caller: masks there take the plain
/// fast path of the trie walk, and only tokens that cross the quote depend on the caller.
@Suite(.enabled(if: SharedData.present(for: "SharedFormatRuleTests"))) struct SharedFormatRuleTests {
    static let schema = #"{"type":"object","properties":{"a":{"type":"string","format":"uri"},"b":{"type":"array","items":{"type":"string","format":"uri"}}}}"#

    @Test func formatRuleEndsWithTheQuote() throws {
        let g = try JSONSchemaCompiler.compile(text: Self.schema)
        let rule = try #require(g.rules.first { $0.name == "format:uri\"" })
        guard case .sequence(let parts) = rule.body else { Issue.record("\(rule.body)"); return }
        #expect(parts.last == .literal("\""))
        let kept = try S.compiled(g, S.vocabulary(["{"])).keptRules
        #expect(kept.contains("format:uri\""))
    }

    /// Masks inside and across the end of the called rule, against the brute-force reference.
    @Test func masksAgainstReference() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema)
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 31)
        for text in [#"{"a": "https://example.com/x?q=1", "b": ["http://a.b/c", "urn:x"]}"#, #"{"b": ["mailto:x@y.z"], "a": "f:"}"#] {
            let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
            try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 400)
        }
        #expect(check.mismatches == [])
        #expect(check.checks > 10_000)
    }
}


/// A `patternProperties` key automaton ends with the key's closing quote too: its per-state rules are
/// referred to in tail position only, and no state inside a key accepts (with `"` after the automaton,
/// every state that could end a name accepted, and a cyclic name automaton's kept rules sent each mask
/// in a key down the general walk).
@Suite(.enabled(if: SharedData.present(for: "PatternKeyQuoteTests"))) struct PatternKeyQuoteTests {
    /// The language tags of maskbench's xAPI language maps (Github_trivial---o88608): a name automaton
    /// too large to become one expression, so it is written as one rule per state.
    static let tag = #"^(([a-zA-Z]{2,8}(-[a-zA-Z]{3}(-[a-zA-Z]{3}){0,2})?(-[a-zA-Z]{4})?(-([a-zA-Z]{2}|[0-9]{3}))?(-[a-zA-Z0-9]{4,8})*(-([0-9]|[a-w]|[y-z]|[A-W]|[Y-Z])-[0-9a-zA-Z]{2,8})*(-x(-[a-zA-Z0-9]{1,8})+)?)|x(-[a-zA-Z0-9]{1,8})+|en-GB-oed|i-ami|i-bnn|i-default|i-enochian|i-hak|i-klingon|i-lux|i-mingo|i-navajo|i-pwn|i-tao|i-tay|i-tsu|sgn-BE-FR|sgn-BE-NL|sgn-CH-DE)$"#
    static let schema = #"{"type":"object","patternProperties":{"# + "\"" + tag + "\"" + #":{"type":"string","minLength":1}},"additionalProperties":false,"minProperties":1}"#

    @Test func nameAutomatonEndsWithTheQuote() throws {
        let g = try JSONSchemaCompiler.compile(text: Self.schema)
        let names = g.rules.filter { $0.name.hasPrefix("name") }
        #expect(!names.isEmpty)
        for rule in names {
            // An accepting state would be an ε alternative; with the quote inside it is `"` instead.
            if case .choice(let alternatives) = rule.body { #expect(!alternatives.contains(.empty), "\(rule.name)") }
            #expect(rule.body != .empty, "\(rule.name)")
        }
    }

    @Test func keyMasksAgainstReference() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema)
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 8)
        for text in [#"{"en-US": "Hello", "fr-FR": "Bonjour", "zh-Hant-TW": "x"}"#, #"{"de": "Hallo"}"#] {
            let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
            try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 300)
        }
        #expect(check.mismatches == [])
        #expect(check.checks > 5_000)
    }
}

/// Names split by overlapping unanchored `patternProperties` (maskbench's o82151: `hipchat`, `github`,
/// `.*`) are one name automaton whose accepting states lead to their part's value, not one automaton
/// per part: the key position is then one NFA state, and each part's value rule is entered after the
/// closing quote.
@Suite(.enabled(if: SharedData.present(for: "PatternPartsTests"))) struct PatternPartsTests {
    static let schema = #"{"type":"object","patternProperties":{"hipchat":{"type":"object","properties":{"room":{"type":"string"}},"required":["room"]},"github":{"type":"object","properties":{"repo":{"type":"string"}},"required":["repo"]},".*":{"type":"object"}}}"#

    @Test func onePartRulePerMatchSet() throws {
        let g = try JSONSchemaCompiler.compile(text: Self.schema)
        let parts = g.rules.map(\.name).filter { $0.contains("#part") }.sorted()
        // `.*` matches every name: parts {.*}, {hipchat, .*}, {github, .*}, {hipchat, github, .*}.
        #expect(parts.count == 4, "\(parts)")
    }

    @Test func masksAgainstReference() throws {
        let grammar = try JSONSchemaCompiler.compile(text: Self.schema)
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 21)
        for text in [#"{"my-hipchat": {"room": "r"}, "github-x": {"repo": "a/b"}, "other": {}}"#,
                     #"{"hipchat+github": {"room": "r", "repo": "x"}}"#] {
            let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
            try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 300)
        }
        #expect(check.mismatches == [])
        #expect(check.checks > 5_000)
        // A member of the `hipchat` part without `room` is refused.
        var m = GrammarMatcher(try CompiledGrammar(grammar, vocabulary: SharedVocabularies.qwen2))
        try m.accept(bytes: Array(#"{"xhipchat": {"#.utf8))
        #expect(throws: (any Error).self) { try m.accept(bytes: Array(#"}"#.utf8)) }
    }
}
