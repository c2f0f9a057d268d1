/// Bounds on the work and memory of compiling and matching. Exceeding one is an error (compile error or a
/// sticky matcher error), never a hang or a silent cut.
public struct MaskLimits: Sendable, Hashable {
    /// Deterministic automaton states over all rules of one grammar. They are built lazily, as matchers
    /// reach them, so this bounds what the matchers of one compiled grammar explore; going past it is a
    /// sticky `MatcherError.automatonTooLarge`. Default 400,000: a declared-order object of a hundred
    /// optional members is inlined whole, and the trie walks inside it make tens of thousands of states
    /// (the tables are reserved untouched, so the bound costs memory only as states are made).
    public var maxAutomatonStates: Int = 400_000
    /// NFA states of one grammar, built at compile time (linear in the grammar with bounded repetitions
    /// unrolled); going past it is `GrammarCompileError.automatonTooLarge`. Default 1,000,000.
    public var maxNFAStates: Int = 1_000_000
    /// Call edges (pushes) over all automaton states of one grammar. Default 1,000,000.
    public var maxCallEdges: Int = 1_000_000
    /// Parse stacks alive at once (the nondeterminism of the grammar at one byte). Default 1,024.
    public var maxStacks: Int = 1_024
    /// A cached automaton state keeps at most this many "depends on what is below" tokens; a state with
    /// more is walked in full each time instead. Default 8,192.
    public var maxUncertainTokens: Int = 8_192
    /// A cached state keeps at most this many tokens that end its rule and go on in the caller (grouped
    /// by the tail the caller reads, `SuffixGroups`); a state with more is walked in full each time.
    /// Default 262,144: at the last characters of a `maxLength` block most of the vocabulary crosses the
    /// block's end, and walking them in full at every visit cost tens of milliseconds per mask.
    public var maxSuffixTokens: Int = 262_144
    /// Bytes of per-state mask caches kept in one compiled grammar. Default 32 MiB (a block end's entry,
    /// with its tails, takes up to about 2 MB).
    public var maxCacheBytes: Int = 32 << 20

    public init() {}
}
