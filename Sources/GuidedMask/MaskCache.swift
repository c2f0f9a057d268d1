/// What one automaton state contributes to a mask regardless of the stack below it.
///
/// Built by walking the token trie from the state with an unknown stack underneath (a "hole"). A token
/// whose bytes are consumed without ever popping into the hole is allowed in every context
/// (`accepted`). A token that fails before any path popped into the hole is rejected in every context
/// (left out). The rest, whose fate depends on the rules below, are `uncertain`, kept in trie
/// (lexicographic) order and re-checked against the real stack at mask time. Inside a JSON string this
/// makes a mask one bitmask copy plus a walk over the few tokens that contain a closing quote.
/// States with too many uncertain tokens are `dense`: they are walked in full at mask time (their masks
/// are sparse in practice: after a number, a literal, a closing quote).
final class MaskCacheEntry: Sendable {
    let isDense: Bool
    /// Bitmask of always-accepted tokens (`maskWords` words), or empty when `acceptedList` is used.
    let acceptedWords: [UInt32]
    /// Always-accepted tokens, when there are few of them; with `slice`, the accepted tokens outside it.
    let acceptedList: [UInt32]
    /// Tokens to check against the real stack, in trie order.
    let uncertain: [UInt32]
    /// Tokens whose only live path returns from the state's rule and goes on in the caller, by the tail
    /// the caller must read; checked against the real stack at mask time like `uncertain`.
    let suffixes: SuffixGroups
    /// A slice all of whose tokens are accepted (string states): the entry then keeps only the tokens
    /// beyond it, not a 19 KB bitmask, so a grammar with thousands of string states fits the cache.
    let slice: TokenSlice?

    static let listThreshold = 1_024
    static let dense = MaskCacheEntry()

    private init() {
        isDense = true; acceptedWords = []; acceptedList = []; uncertain = []; suffixes = .empty; slice = nil
    }

    /// An entry over `slice`: `accepted` (its members plus what the walk of the rest trie added) is
    /// stored as the tokens it holds beyond the slice.
    init(slice: TokenSlice, accepted: [UInt32], uncertain: [UInt32], suffixes: SuffixGroups) {
        isDense = false
        self.slice = slice
        var extra: [UInt32] = []
        accepted.withUnsafeBufferPointer { a in
            slice.members.withUnsafeBufferPointer { m in
                for w in 0..<min(a.count, m.count) where a[w] & ~m[w] != 0 {
                    Self.appendTokens(of: a[w] & ~m[w], word: w, to: &extra)
                }
            }
        }
        acceptedList = extra
        acceptedWords = []
        self.uncertain = uncertain
        self.suffixes = suffixes
    }

    /// An entry from a full bitmask: kept as a token list when it holds few tokens (most structural
    /// states allow a handful), else as the bitmask. A cache entry is made at every first visit of a
    /// state, so the 4,750-word scans here run over raw buffers, and the list pass skips zero words.
    init(acceptedWords: [UInt32], uncertain: [UInt32], suffixes: SuffixGroups) {
        isDense = false
        slice = nil
        var list: [UInt32] = []
        let few: Bool = acceptedWords.withUnsafeBufferPointer { a in
            // Two words at a time: one population count and one zero test per pair.
            let pairs = a.count / 2
            let raw = UnsafeRawPointer(a.baseAddress!)
            var count = a.count % 2 == 1 ? a[a.count - 1].nonzeroBitCount : 0
            for i in 0..<pairs { count &+= raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self).nonzeroBitCount }
            guard count <= Self.listThreshold else { return false }
            list.reserveCapacity(count)
            for i in 0..<pairs where raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self) != 0 {
                Self.appendTokens(of: a[2 * i], word: 2 * i, to: &list)
                Self.appendTokens(of: a[2 * i + 1], word: 2 * i + 1, to: &list)
            }
            if a.count % 2 == 1 { Self.appendTokens(of: a[a.count - 1], word: a.count - 1, to: &list) }
            return true
        }
        if few {
            self.acceptedList = list
            self.acceptedWords = []
        } else {
            self.acceptedWords = acceptedWords
            self.acceptedList = []
        }
        self.uncertain = uncertain
        self.suffixes = suffixes
    }

    /// Appends the token ids whose bits are set in mask word `word` (LSB-first).
    @inline(__always)
    private static func appendTokens(of bits: UInt32, word: Int, to list: inout [UInt32]) {
        var b = bits
        while b != 0 {
            list.append(UInt32(word * 32 + b.trailingZeroBitCount))
            b &= b - 1
        }
    }

    var byteCount: Int { 64 + acceptedWords.count * 4 + acceptedList.count * 4 + uncertain.count * 4 + suffixes.byteCount }
}

/// The per-grammar cache, keyed by automaton state.
struct MaskCache: ~Copyable {
    var entries: [Int32: MaskCacheEntry] = [:]
    var bytes = 0
}
