/// Bounds on the work and memory of compiling and matching. Exceeding one is an error (compile error or a
/// sticky matcher error), never a hang or a silent cut.
public struct MaskLimits: Sendable, Hashable {
    /// Automaton states over all rules of one grammar (subset construction). Default 100,000.
    public var maxAutomatonStates: Int = 100_000
    /// Parse stacks alive at once (the nondeterminism of the grammar at one byte). Default 1,024.
    public var maxStacks: Int = 1_024
    /// A cached automaton state keeps at most this many "depends on what is below" tokens; a state with
    /// more is walked in full each time instead. Default 8,192.
    public var maxUncertainTokens: Int = 8_192
    /// Bytes of per-state mask caches kept in one compiled grammar. Default 6 MiB.
    public var maxCacheBytes: Int = 6 << 20

    public init() {}
}
