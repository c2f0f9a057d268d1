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
    /// A slice all of whose tokens are accepted (string states): the entry then keeps only the tokens
    /// beyond it, not a 19 KB bitmask, so a grammar with thousands of string states fits the cache.
    let slice: TokenSlice?

    static let listThreshold = 1_024
    static let dense = MaskCacheEntry()

    private init() {
        isDense = true; acceptedWords = []; acceptedList = []; uncertain = []; slice = nil
    }

    /// An entry over `slice`: `accepted` (its members plus what the walk of the rest trie added) is
    /// stored as the tokens it holds beyond the slice.
    init(slice: TokenSlice, accepted: [UInt32], uncertain: [UInt32]) {
        isDense = false
        self.slice = slice
        var extra: [UInt32] = []
        for w in accepted.indices {
            var bits = accepted[w] & ~slice.members[w]
            while bits != 0 {
                extra.append(UInt32(w * 32 + bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
        acceptedList = extra
        acceptedWords = []
        self.uncertain = uncertain
    }

    init(acceptedWords: [UInt32], acceptedCount: Int, uncertain: [UInt32]) {
        isDense = false
        slice = nil
        if acceptedCount <= Self.listThreshold {
            var list: [UInt32] = []
            list.reserveCapacity(acceptedCount)
            for (w, word) in acceptedWords.enumerated() where word != 0 {
                var bits = word
                while bits != 0 {
                    list.append(UInt32(w * 32 + bits.trailingZeroBitCount))
                    bits &= bits - 1
                }
            }
            self.acceptedList = list
            self.acceptedWords = []
        } else {
            self.acceptedWords = acceptedWords
            self.acceptedList = []
        }
        self.uncertain = uncertain
    }

    var byteCount: Int { 64 + acceptedWords.count * 4 + acceptedList.count * 4 + uncertain.count * 4 }
}

/// The per-grammar cache, keyed by automaton state.
struct MaskCache: ~Copyable {
    var entries: [Int32: MaskCacheEntry] = [:]
    var bytes = 0
}
