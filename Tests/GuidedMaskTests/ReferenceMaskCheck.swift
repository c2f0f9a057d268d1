import Foundation
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// Compares the engine's mask with the brute-force reference (`ReferenceRecognizer` fed each token's
/// bytes) along random walks, and reports every disagreement.
struct ReferenceMaskCheck {
    let compiled: CompiledGrammar
    let grammar: Grammar
    var vocab: TokenVocabulary { compiled.vocabulary.vocabulary }

    /// Mismatches found, as readable strings (empty means exact).
    var mismatches: [String] = []
    /// Token checks made against the reference.
    var checks = 0
    /// Steps where every token of the vocabulary was compared (pruned reference walk finished).
    var fullSteps = 0

    init(grammar: Grammar, index: VocabularyIndex) throws {
        self.grammar = grammar
        compiled = try CompiledGrammar(grammar, vocabulary: index)
    }

    /// One random walk of `steps` tokens (or along `path` when given), checking each step.
    mutating func walk(steps: Int, path: [Int]? = nil, rng: inout SplitMix64Generator, sample: Int = 600, fullBudget: Int = 4_000) throws {
        var matcher = GrammarMatcher(compiled)
        var reference = try ReferenceRecognizer(grammar)
        var mask: [UInt32] = []
        for step in 0..<steps {
            try matcher.fillNextTokenMask(into: &mask)
            check(step: step, matcher: matcher, reference: reference, mask: mask, rng: &rng, sample: sample, fullBudget: fullBudget)
            if mismatches.count > 10 { return }
            let next: Int
            if let path {
                guard step < path.count else { return }
                next = path[step]
            } else {
                let allowed = MaskTestSupport.ids(in: mask).filter { !vocab.eosTokenIDs.contains($0) }
                guard let pick = allowed.randomElement(using: &rng) else { return }
                next = pick
            }
            let bytes = Array(vocab.tokenBytes(next))
            let refOK = reference.feed(bytes)
            do {
                try matcher.accept(token: next)
                if !refOK { mismatches.append("step \(step): engine accepted token \(next) the reference refuses") }
            } catch {
                if refOK { mismatches.append("step \(step): engine refused token \(next) (\(error)) the reference accepts") }
                return
            }
        }
    }

    private mutating func check(step: Int, matcher: GrammarMatcher, reference: ReferenceRecognizer, mask: [UInt32],
                                rng: inout SplitMix64Generator, sample: Int, fullBudget: Int) {
        func compare(_ id: Int) {
            if vocab.eosTokenIDs.contains(id) { return }   // checked against canTerminate above
            checks += 1
            let expected = !vocab.isSpecial(id) && !vocab.tokenBytes(id).isEmpty && reference.accepts(prefix: vocab.tokenBytes(id))
            let actual = MaskTestSupport.isSet(mask, id)
            if expected != actual {
                let text = String(decoding: vocab.tokenBytes(id), as: UTF8.self).debugDescription
                mismatches.append("step \(step): token \(id) \(text): engine \(actual), reference \(expected)")
            }
        }
        if matcher.canTerminate != reference.canTerminate {
            mismatches.append("step \(step): canTerminate engine \(matcher.canTerminate), reference \(reference.canTerminate)")
        }
        for e in vocab.eosTokenIDs where MaskTestSupport.isSet(mask, e) != reference.canTerminate {
            mismatches.append("step \(step): EOS \(e) bit disagrees with canTerminate \(reference.canTerminate)")
        }
        // Every token, when the reference's pruned trie walk stays under budget.
        if let full = fullReferenceMask(reference, budget: fullBudget) {
            fullSteps += 1
            for id in 0..<vocab.size where !vocab.eosTokenIDs.contains(id) {
                if full.contains(id) != MaskTestSupport.isSet(mask, id) {
                    checks += 1
                    let text = String(decoding: vocab.tokenBytes(id), as: UTF8.self).debugDescription
                    mismatches.append("step \(step): token \(id) \(text): engine \(MaskTestSupport.isSet(mask, id)), reference \(full.contains(id))")
                    if mismatches.count > 10 { return }
                }
            }
            checks += vocab.size
            return
        }
        // Otherwise samples: allowed tokens, tokens starting with an allowed byte, any tokens.
        let allowed = MaskTestSupport.ids(in: mask).filter { !vocab.eosTokenIDs.contains($0) }
        for _ in 0..<min(sample, allowed.count) { compare(allowed.randomElement(using: &rng)!) }
        let first = reference.allowedNextBytes
        var near = 0, tries = 0
        while near < sample && tries < sample * 50 {
            tries += 1
            let id = Int.random(in: 0..<vocab.size, using: &rng)
            if let b = vocab.tokenBytes(id).first, first.contains(b) { compare(id); near += 1 }
        }
        for _ in 0..<sample { compare(Int.random(in: 0..<vocab.size, using: &rng)) }
    }

    /// The exact set of allowed tokens by a depth-first walk of the trie with the reference, or nil if
    /// more than `budget` trie nodes would be visited.
    private func fullReferenceMask(_ reference: ReferenceRecognizer, budget: Int) -> Set<Int>? {
        let nodes = compiled.vocabulary.trie.nodes
        var allowed = Set<Int>()
        var stack: [ReferenceRecognizer] = [reference]
        var visited = 0
        var i = 0
        while i < nodes.count {
            let node = nodes[i]
            stack.removeLast(stack.count - node.depth)
            var r = stack[node.depth - 1]
            visited += 1
            if visited > budget { return nil }
            if r.feed(node.byte) {
                if node.hasToken { allowed.insert(Int(node.token)) }
                stack.append(r)
                i += 1
            } else {
                i += node.subtreeSize
            }
        }
        for d in compiled.vocabulary.trie.duplicates where allowed.contains(Int(d.primary)) { allowed.insert(Int(d.duplicate)) }
        return allowed
    }
}

extension ReferenceRecognizer {
    /// The input followed by `bytes` is still a prefix of some sentence.
    func accepts(prefix bytes: ArraySlice<UInt8>) -> Bool {
        var copy = self
        return copy.feed(bytes)
    }
}
