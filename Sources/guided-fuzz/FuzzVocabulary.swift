import GuidedMask
import GuidedTokenizers

/// The vocabulary the compile targets run against: every single byte (so any text can be spelled),
/// some JSON-shaped multi-byte tokens (so masks cross token boundaries inside literals and keys), and an
/// end-of-sequence token. Built once per process.
enum FuzzVocabulary {
    static let pieces: [String] = [
        "{\"", "\":", "\": ", "\",", "\"}", "}", "},", "[", "[]", "]", ", ", "null", "true", "false", "tr", "ue",
        "00", "12", "0.", ".5", "e+", "-1", "  ", "\n", "\n  ", "\\u", "\\\"", "ab", "abc", "name", "type",
        "\u{00E9}", "\u{1F600}", "é\"",
    ]

    static let vocabulary: TokenVocabulary = {
        var tokens = (0..<256).map { [UInt8($0)] }
        tokens += pieces.map { Array($0.utf8) }
        tokens.append(Array("</s>".utf8))
        return TokenVocabulary(tokens: tokens, specialTokenIDs: [tokens.count - 1], eosTokenIDs: [tokens.count - 1])
    }()

    static let index: VocabularyIndex = {
        do { return try VocabularyIndex(vocabulary) } catch { fatalError("the fuzz vocabulary does not index: \(error)") }
    }()

    /// Limits small enough that one input compiles in milliseconds: the targets look for traps and
    /// unbounded work, and a limit reached is an ordinary, typed outcome.
    static let maskLimits: MaskLimits = {
        var l = MaskLimits()
        l.maxAutomatonStates = 20_000
        l.maxNFAStates = 50_000
        l.maxCallEdges = 50_000
        l.maxCacheBytes = 4 << 20
        return l
    }()
}

/// Drives a matcher over a compiled grammar along tokens picked by `choices`: fills the mask, takes an
/// allowed token, and checks that the mask's own tokens are accepted.
enum FuzzMatcherWalk {
    /// A limit of `MaskLimits` reached while accepting: the matcher fails closed with a typed error,
    /// an ordinary outcome for an ambiguous grammar (its parse stacks pass `maxStacks`).
    static func isResourceLimit(_ error: MatcherError) -> Bool {
        switch error {
        case .tooManyStacks, .automatonTooLarge, .tooManyCountedStrings: return true
        case .failed(let inner): return isResourceLimit(inner)
        default: return false
        }
    }

    static func walk(_ compiled: CompiledGrammar, choices: [UInt8], steps: Int = 24) {
        var matcher = GrammarMatcher(compiled)
        var mask: [UInt32] = []
        var pick = choices.makeIterator()
        let eos = FuzzVocabulary.vocabulary.eosTokenIDs
        for _ in 0..<steps {
            guard (try? matcher.fillNextTokenMask(into: &mask)) != nil else { return }
            var allowed: [Int] = []
            for (w, word) in mask.enumerated() {
                var bits = word
                while bits != 0 { allowed.append(w * 32 + bits.trailingZeroBitCount); bits &= bits - 1 }
            }
            let ordinary = allowed.filter { !eos.contains($0) }
            if allowed.contains(where: eos.contains) != matcher.canTerminate {
                FuzzFinding.report("EOS bit disagrees with canTerminate")
            }
            guard !ordinary.isEmpty, let c = pick.next() else { return }
            let token = ordinary[Int(c) % ordinary.count]
            do throws(MatcherError) { try matcher.accept(token: token) } catch {
                if FuzzMatcherWalk.isResourceLimit(error) { return }
                FuzzFinding.report("token \(token) was in the mask but accept refused it: \(error)")
            }
        }
    }
}
