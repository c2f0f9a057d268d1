import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// The brute-force reference for grammars that read tokens (`GrammarExpr.token`, excluded tokens): at
/// every step, each token of a small vocabulary is decided by `ReferenceRecognizer` over the grammar
/// with its token references resolved, and compared with the engine's mask bit:
/// - an EOS token: the input is a sentence;
/// - a token the grammar names: the recognizer can read that token terminal (its bytes never count);
/// - a special token or an excluded one: never;
/// - any other token: the recognizer can read its bytes.
/// Walks pick random allowed tokens and feed both sides the same way.
struct TokenLevelCheck {
    let compiled: CompiledGrammar
    let resolved: Grammar
    let vocab: TokenVocabulary
    let terminals: Set<Int>
    let excluded: Set<Int>
    var mismatches: [String] = []
    var checks = 0

    init(_ grammar: Grammar, vocabulary: TokenVocabulary) throws {
        let index = try VocabularyIndex(vocabulary)
        compiled = try CompiledGrammar(grammar, vocabulary: index)
        resolved = try grammar.resolvingTokens(vocabularySize: vocabulary.size) { index.tokenID(text: $0) }
        vocab = vocabulary
        var named = Set<Int>()
        func collect(_ e: GrammarExpr) {
            switch e {
            case .token(let r): if let id = r.resolvedID { named.insert(id) }
            case .sequence(let p), .choice(let p): p.forEach(collect)
            case .repeat(let x, _, _): collect(x)
            case .tokenBudget(let b, _, let t): collect(b); collect(t)
            default: break
            }
        }
        resolved.rules.forEach { collect($0.body) }
        terminals = named
        excluded = named.union(resolved.excludedTokens.compactMap(\.resolvedID))
    }

    func expected(_ id: Int, _ reference: ReferenceRecognizer) -> Bool {
        if vocab.eosTokenIDs.contains(id) { return reference.canTerminate }
        if terminals.contains(id) { var r = reference; return r.feed(token: id) }
        if excluded.contains(id) || vocab.isSpecial(id) || vocab.tokenBytes(id).isEmpty { return false }
        var r = reference
        return r.feed(Array(vocab.tokenBytes(id)))
    }

    /// Compares every token's bit at every step of `walks` random walks of up to `steps` tokens.
    mutating func run(walks: Int, steps: Int, seed: UInt64) throws {
        var rng = SplitMix64Generator(seed: seed)
        for w in 0..<walks {
            var matcher = GrammarMatcher(compiled)
            var reference = try ReferenceRecognizer(resolved)
            var mask: [UInt32] = []
            for step in 0..<steps {
                try matcher.fillNextTokenMask(into: &mask)
                var allowed: [Int] = []
                for id in 0..<vocab.size {
                    checks += 1
                    let bit = MaskTestSupport.isSet(mask, id)
                    if bit != expected(id, reference) {
                        let text = String(decoding: vocab.tokenBytes(id), as: UTF8.self).debugDescription
                        mismatches.append("walk \(w) step \(step): token \(id) \(text): engine \(bit)")
                        if mismatches.count > 10 { return }
                    }
                    if bit && !vocab.eosTokenIDs.contains(id) { allowed.append(id) }
                }
                guard let next = allowed.randomElement(using: &rng) else { break }
                try matcher.accept(token: next)
                let fed = terminals.contains(next) ? reference.feed(token: next) : reference.feed(Array(vocab.tokenBytes(next)))
                if !fed { mismatches.append("walk \(w) step \(step): the reference refuses token \(next)"); return }
            }
        }
    }
}
