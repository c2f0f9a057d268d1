import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// Helpers for mask tests: tiny vocabularies from strings, masks as sorted id lists.
enum MaskTestSupport {
    /// A vocabulary of `tokens` (UTF-8) plus, at the end, one special EOS token `</s>`.
    static func vocabulary(_ tokens: [String], padTo size: Int? = nil) -> TokenVocabulary {
        var all = tokens.map { Array($0.utf8) }
        all.append(Array("</s>".utf8))
        return TokenVocabulary(tokens: all, specialTokenIDs: [all.count - 1], eosTokenIDs: [all.count - 1], size: size)
    }

    static func compiled(_ grammar: Grammar, _ vocab: TokenVocabulary) throws -> CompiledGrammar {
        try CompiledGrammar(grammar, vocabulary: VocabularyIndex(vocab))
    }

    static func compiled(gbnf: String, _ vocab: TokenVocabulary) throws -> CompiledGrammar {
        try compiled(Grammar(gbnf: gbnf), vocab)
    }

    /// The allowed token ids of the matcher's next mask, sorted.
    static func allowed(_ m: inout GrammarMatcher) throws -> [Int] {
        var mask: [UInt32] = []
        try m.fillNextTokenMask(into: &mask)
        return ids(in: mask)
    }

    /// Masks at every position of `documents` against a judge of texts (the distinct-items suites): each
    /// token of `tokens` (the vocabulary's order; those in `skipping` left out) is allowed exactly when
    /// `viable(prefix + token)`, the end exactly when `valid(prefix)`. Returns how many tokens were
    /// checked and how many refused ones `repeatsViable` (the schema with repeats allowed) would take.
    static func compareWithJudge(_ compiled: CompiledGrammar, tokens: [String], documents: [String], skipping: [String] = [],
                                 viable: (String) -> Bool, valid: (String) -> Bool, repeatsViable: (String) -> Bool,
                                 label: String) throws -> (checked: Int, refused: Int) {
        var refused = 0, checked = 0
        for document in documents {
            #expect(valid(document), "\(document) should be a valid instance")
            let bytes = Array(document.utf8)
            var m = GrammarMatcher(compiled)
            for p in 0...bytes.count {
                if p > 0 { try m.accept(bytes: [bytes[p - 1]]) }
                let prefix = String(decoding: bytes[0..<p], as: UTF8.self)
                let allowed = Set(try Self.allowed(&m))
                for (t, token) in tokens.enumerated() where !skipping.contains(token) {
                    let expected = viable(prefix + token)
                    #expect(allowed.contains(t) == expected, "\(label) after \(prefix): token \(token) should be \(expected ? "allowed" : "refused")")
                    if !expected && repeatsViable(prefix + token) { refused += 1 }
                    checked += 1
                }
                #expect(allowed.contains(tokens.count) == valid(prefix), "\(label): end after \(prefix)")
            }
        }
        return (checked, refused)
    }

    /// Whether the matcher takes all of `text` and can stop there.
    static func accepts(_ c: CompiledGrammar, _ text: String) -> Bool {
        var m = GrammarMatcher(c)
        do { try m.accept(bytes: Array(text.utf8)) } catch { return false }
        return m.canTerminate
    }

    /// The tokens (of a vocabulary made of `tokens` by `vocabulary`) allowed after `text`, by name.
    static func allowed(_ c: CompiledGrammar, after text: String, tokens: [String]) throws -> [String] {
        var m = GrammarMatcher(c)
        try m.accept(bytes: Array(text.utf8))
        return try allowed(&m).map { $0 < tokens.count ? tokens[$0] : "</s>" }
    }

    static func ids(in mask: [UInt32]) -> [Int] {
        var out: [Int] = []
        for (w, word) in mask.enumerated() {
            var bits = word
            while bits != 0 { out.append(w * 32 + bits.trailingZeroBitCount); bits &= bits - 1 }
        }
        return out
    }

    /// Every sequence of `keys` (repeats allowed) of length 0 through `n`, shortest first.
    static func keySequences(_ keys: [String], upTo n: Int) -> [[String]] {
        var sequences: [[String]] = [[]]
        var frontier: [[String]] = [[]]
        for _ in 0..<n {
            frontier = frontier.flatMap { s in keys.map { s + [$0] } }
            sequences += frontier
        }
        return sequences
    }

    static func isSet(_ mask: [UInt32], _ id: Int) -> Bool { mask[id >> 5] & (1 << UInt32(id & 31)) != 0 }
}
