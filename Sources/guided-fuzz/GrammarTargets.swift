import GuidedGrammar
@_spi(Testing) import GuidedMask
import GuidedTokenizers

extension FuzzTarget {
    /// GBNF text → grammar → compiled grammar → a short matcher walk.
    static let gbnf = FuzzTarget(name: "gbnf", summary: "GBNF parser, mask compiler and matcher", maxLength: 2048) { bytes in
        guard let text = FuzzInput.text(bytes), let grammar = try? Grammar(gbnf: text),
              let compiled = try? CompiledGrammar(grammar, vocabulary: FuzzVocabulary.index, limits: FuzzVocabulary.maskLimits)
        else { return }
        FuzzMatcherWalk.walk(compiled, choices: Array(bytes.reversed()))
    }

    /// A regex in both dialects (whole match, ECMA-262 search) → grammar → compiled grammar.
    static let regex = FuzzTarget(name: "regex", summary: "regex parser and lowering (both dialects), mask compiler", maxLength: 512) { bytes in
        guard let pattern = FuzzInput.text(bytes) else { return }
        for dialect in [RegexDialect.grammar, .ecma262] {
            guard let expr = try? RegexLowering.compile(pattern, dialect: dialect) else { continue }
            let grammar = Grammar(root: expr)
            guard let compiled = try? CompiledGrammar(grammar, vocabulary: FuzzVocabulary.index, limits: FuzzVocabulary.maskLimits)
            else { continue }
            FuzzMatcherWalk.walk(compiled, choices: Array(bytes.reversed()), steps: 8)
        }
    }

    /// GBNF grammar and text (split at the first NUL byte): at every byte of the text, the matcher's
    /// mask over single-byte tokens and its end bit equal the reference recognizer's. A difference is a
    /// finding, not only a crash.
    static let matcher = FuzzTarget(name: "matcher", summary: "matcher against the reference recognizer, byte by byte", maxLength: 1024) { bytes in
        let (head, text) = FuzzInput(bytes: bytes).split()
        guard let source = FuzzInput.text(head), let grammar = try? Grammar(gbnf: source),
              var reference = try? ReferenceRecognizer(grammar),
              let compiled = try? CompiledGrammar(grammar, vocabulary: FuzzVocabulary.index, limits: FuzzVocabulary.maskLimits)
        else { return }
        var matcher = GrammarMatcher(compiled, maxRollback: nil)
        var mask: [UInt32] = []
        for (position, byte) in text.prefix(64).enumerated() {
            guard (try? matcher.fillNextTokenMask(into: &mask)) != nil else { return }
            if matcher.canTerminate != reference.canTerminate {
                FuzzFinding.report("at byte \(position): canTerminate engine \(matcher.canTerminate), reference \(reference.canTerminate)")
            }
            let allowed = reference.allowedNextBytes
            for b in 0..<256 {
                let engine = mask[b >> 5] & (1 << UInt32(b & 31)) != 0
                if engine != allowed.contains(UInt8(b)) {
                    FuzzFinding.report("at byte \(position): byte \(b) engine \(engine), reference \(!engine)")
                }
            }
            guard allowed.contains(byte) else { return }
            _ = reference.feed(byte)
            do throws(MatcherError) { try matcher.accept(token: Int(byte)) } catch {
                if FuzzMatcherWalk.isResourceLimit(error) { return }
                FuzzFinding.report("at byte \(position): accept refused byte \(byte) the mask allowed: \(error)")
            }
        }
    }

    /// GBNF grammar and token choices (split at the first NUL byte): along a walk, every first visit is
    /// made in parts of a few trie nodes on 1-3 threads and in one walk, and the two entries must agree
    /// field by field; the masks must equal those of a second compilation that walks on one thread.
    static let spread = FuzzTarget(name: "spread", summary: "first visits walked in parts against one walk", maxLength: 1024) { bytes in
        let (head, choices) = FuzzInput(bytes: bytes).split()
        guard let source = FuzzInput.text(head), let grammar = try? Grammar(gbnf: source),
              let one = try? CompiledGrammar(grammar, vocabulary: FuzzVocabulary.index, limits: FuzzVocabulary.maskLimits),
              let parts = try? CompiledGrammar(grammar, vocabulary: FuzzVocabulary.index, limits: FuzzVocabulary.maskLimits)
        else { return }
        var a = GrammarMatcher(one), b = GrammarMatcher(parts)
        var maskA: [UInt32] = [], maskB: [UInt32] = []
        let eos = FuzzVocabulary.vocabulary.eosTokenIDs
        for (step, c) in choices.prefix(24).enumerated() {
            let differ = b.spreadAndCompareFirstVisits(threads: 1 + Int(c % 3), partNodes: 1 + Int(c >> 5))
            if !differ.isEmpty { FuzzFinding.report("at step \(step): entries made in parts differ for states \(differ)") }
            let filledA = (try? a.fillNextTokenMask(into: &maskA)) != nil, filledB = (try? b.fillNextTokenMask(into: &maskB)) != nil
            if filledA != filledB { FuzzFinding.report("at step \(step): one walk filled \(filledA), parts \(filledB)") }
            guard filledA else { return }
            if maskA != maskB { FuzzFinding.report("at step \(step): masks differ") }
            var allowed: [Int] = []
            for (w, word) in maskA.enumerated() {
                var bits = word
                while bits != 0 { allowed.append(w * 32 + bits.trailingZeroBitCount); bits &= bits - 1 }
            }
            let ordinary = allowed.filter { !eos.contains($0) }
            guard !ordinary.isEmpty else { return }
            let token = ordinary[Int(c) % ordinary.count]
            let acceptedA = (try? a.accept(token: token)) != nil, acceptedB = (try? b.accept(token: token)) != nil
            if acceptedA != acceptedB { FuzzFinding.report("at step \(step): token \(token) accepted by one walk \(acceptedA), parts \(acceptedB)") }
            guard acceptedA else { return }
        }
    }
}
