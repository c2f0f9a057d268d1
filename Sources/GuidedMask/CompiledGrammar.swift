import CGuidedAtomics
import GuidedGrammar
import GuidedTokenizers
import GuidedSync

/// A grammar compiled against a vocabulary: immutable automaton tables plus a lazily filled, shared
/// cache of per-state token masks. Create it once, share it across threads, and start one
/// `GrammarMatcher` per sequence.
///
/// Compiling builds the rule automata only (about a millisecond for JSON); nothing is precomputed over
/// the vocabulary. The first time a matcher meets an automaton state it walks the token trie once for
/// that state and caches the result here (see `MaskCacheEntry`).
public final class CompiledGrammar: @unchecked Sendable {
    // @unchecked: the automaton buffers are written only in `init` and freed in `deinit`; the one
    // mutable part, the mask cache, is behind a lock (`Locked`); the rest are immutable Sendable values.
    public let vocabulary: VocabularyIndex
    public let limits: MaskLimits
    /// Names of the rules kept as pushdown frames (the others were inlined into automata).
    public let keptRules: [String]
    /// The grammar this was compiled from. Holding it also means its expression trees, which can be as
    /// large as the NFA, are freed with the compiled grammar rather than inside compilation, where
    /// freeing them was a few percent of a typical schema's time to first mask.
    public let grammar: Grammar

    let automaton: GrammarAutomaton
    let tables: AutomatonTables
    let startState: Int32
    /// Bytes of each byte class, for forced-byte computation.
    let classBytes: [[UInt8]]
    let cache: Locked<MaskCache>
    /// The cache's lock-free index for readers.
    let slots: MaskCacheSlots
    /// Per state of the slice text automaton (`SliceUTF8`): the distinct (byte class, next text state)
    /// pairs of its bytes, so a slice check does one table lookup per class rather than per byte.
    let sliceEdges: [[(cls: Int, u: UInt8)]]
    /// The byte classes holding printable ASCII characters of plain text (not `"` or `\`), with how many
    /// each holds: every token slice reads all of them but a gap slice's few (`chooseSlice`).
    let plainASCIIClasses: [(cls: Int, characters: Int)]
    /// The byte classes that begin a character of plain text (`SliceUTF8`: printable ASCII but `"` and
    /// `\`, and the lead bytes).
    let plainFirstClasses: [Int]
    /// The token symbols (see `TokenSymbols`): terminals, excluded tokens, budgets.
    let symbols: TokenSymbols
    /// The vocabulary's quote tokens, where the grammar has arrays of distinct strings (`DistinctItems`).
    let quoteTokens: QuoteTokens?
    /// Where the grammar has strings of counted length: the tokens that may open such a string and, in
    /// the same token, write more than every counted length can take from its start or close it shorter
    /// than some `minLength` (`CountedStrings.openingRisks`); a mask reads them by accepting each.
    let countedOpeningRisks: [UInt32]

    /// Compiles `grammar` for an indexed vocabulary.
    public convenience init(_ grammar: Grammar, vocabulary: VocabularyIndex, limits: MaskLimits = MaskLimits()) throws(GrammarCompileError) {
        try self.init(grammar, vocabulary: vocabulary, limits: limits, budget: nil)
    }

    /// Compiles `grammar` for an indexed vocabulary within `budget`: the compile stops with
    /// `.budgetExceeded` once its deadline passes or it is cancelled (states built later, as matchers
    /// reach them, are bounded by `limits`, not by the budget).
    public init(_ grammar: Grammar, vocabulary: VocabularyIndex, limits: MaskLimits = MaskLimits(),
                budget: CompileBudget?) throws(GrammarCompileError) {
        let automaton: GrammarAutomaton
        let resolved = try TokenSymbols.resolve(grammar, vocabulary: vocabulary)
        do {
            automaton = try CompileBudget.running(with: budget) { () throws(GrammarCompileError) in
                try GrammarAutomaton(grammar: resolved, limits: limits)
            }
        } catch {
            if let spent = budget?.exceeded { throw .budgetExceeded(spent) }
            throw error
        }
        self.automaton = automaton
        self.vocabulary = vocabulary
        self.limits = limits
        keptRules = automaton.ruleNames
        self.grammar = grammar
        startState = automaton.startState
        tables = AutomatonTables(automaton, vocabulary: vocabulary)
        symbols = try TokenSymbols(resolved, automaton: automaton, vocabulary: vocabulary.vocabulary)
        var cb = [[UInt8]](repeating: [], count: automaton.classCount)
        for b in 0..<256 { cb[Int(automaton.classOf[b])].append(UInt8(b)) }
        classBytes = cb
        quoteTokens = automaton.hasDistinctItems ? vocabulary.quoteTokens : nil
        countedOpeningRisks = automaton.countedLengths.isEmpty ? []
            : CountedStrings.openingRisks(vocabulary, automaton.countedLengths)
        cache = Locked(MaskCache())
        slots = MaskCacheSlots(maxKeys: 2 * limits.maxAutomatonStates + 2)
        // (Deduplicated through a flat table rather than a `Set`: hashing 2,048 pairs was a fixed tenth
        // of a millisecond on every compile.)
        sliceEdges = Self.classEdges(SliceUTF8.edges, automaton)
        var plainCounts = [Int](repeating: 0, count: automaton.classCount)
        for b in 0x20...0x7F where b != 0x22 && b != 0x5C { plainCounts[Int(automaton.classOf[b])] += 1 }
        plainASCIIClasses = plainCounts.indices.filter { plainCounts[$0] > 0 }.map { ($0, plainCounts[$0]) }
        plainFirstClasses = Array(Set(sliceEdges[Int(SliceUTF8.boundary)].map(\.cls))).sorted()
    }

    /// Per position of a text automaton (`SliceUTF8.edges`, `spacelessEdges`): the distinct (byte class,
    /// next position) pairs of its bytes.
    static func classEdges(_ edges: [[(UInt8, UInt8)]], _ automaton: GrammarAutomaton) -> [[(cls: Int, u: UInt8)]] {
        let textStates = edges.count, classCount = automaton.classCount
        var seen = [Bool](repeating: false, count: classCount * textStates)
        return edges.map { byteEdges in
            var pairs: [(cls: Int, u: UInt8)] = []
            for i in seen.indices { seen[i] = false }
            for (b, next) in byteEdges {
                let cls = Int(automaton.classOf[Int(b)])
                let key = cls * textStates + Int(next)
                if !seen[key] { seen[key] = true; pairs.append((cls, next)) }
            }
            return pairs
        }
    }

    /// `sliceEdges` of plain text without its non-ASCII white space (`SliceUTF8.nextSpaceless`), made on
    /// the first class check that asks (most grammars never do; made at compile, they cost every compile
    /// as much as `sliceEdges`).
    var spacelessEdges: [[(cls: Int, u: UInt8)]] {
        spaceless.withLock { edges in
            if edges == nil { edges = Self.classEdges(SliceUTF8.spacelessEdges, automaton) }
            return edges!
        }
    }
    private let spaceless = Locked<[[(cls: Int, u: UInt8)]]?>(nil)

    /// True when any character of plain text may follow `rule` (`RuleFollow`).
    func followsAllPlainText(_ rule: Int) -> Bool {
        plainFirstClasses.allSatisfy { automaton.follow.follows(rule, $0) }
    }

    /// Deterministic automaton states built so far (they are built as matchers reach them).
    public var stateCount: Int { automaton.statistics.states }

    /// States of the grammar's NFA, built at compile time.
    public var nfaStateCount: Int { automaton.nfaStateCount }

    /// Compiles `grammar` for a vocabulary, indexing the vocabulary first (slow: prefer building one
    /// `VocabularyIndex` and reusing it).
    public convenience init(_ grammar: Grammar, vocabulary: TokenVocabulary, limits: MaskLimits = MaskLimits()) throws(GrammarCompileError) {
        try self.init(grammar, vocabulary: VocabularyIndex(vocabulary), limits: limits)
    }

    /// Bytes held by the automaton tables and the mask cache with its index (not the vocabulary index).
    public var memoryFootprint: Int {
        automaton.statistics.bytes + classBytes.count * 16 + cache.withLock { $0.bytes } + slots.byteCount
    }

    /// Number of automaton states with a cached mask so far.
    public var cachedStateCount: Int { cache.withLock { $0.entries.count } }

    /// What the mask cache holds: states cached, of which dense (walked in full each time), and the
    /// total of uncertain tokens kept (re-checked against the real stack at each mask).
    public var cacheStatistics: (states: Int, dense: Int, uncertainTokens: Int) {
        cache.withLock { c in
            var dense = 0, uncertain = 0
            for e in c.entries.values { if e.isDense { dense += 1 }; uncertain += e.uncertain.count }
            return (c.entries.count, dense, uncertain)
        }
    }

    /// One line per cached state (state, always-allowed and uncertain token counts; "slice merged" where
    /// the entry keeps its slice and the tokens beyond it as one bitmask), for diagnostics.
    public func cacheDescription() -> [String] {
        cache.withLock { c in
            c.entries.keys.sorted().map { q in
                let e = c.entries[q]!
                let name = "state \(q / 2)\(q % 2 == 1 ? " (bottom)" : "")"
                if e.isDense { return "\(name): dense" }
                let inSlice = e.sliceMembers == nil ? 0 : e.slice.map { $0.members.reduce(0) { $0 + $1.nonzeroBitCount } } ?? 0
                let accepted = inSlice + (e.acceptedWords.isEmpty ? e.acceptedList.count : e.acceptedWords.reduce(0) { $0 + $1.nonzeroBitCount })
                let merged = e.slice != nil && e.sliceMembers == nil ? " (slice merged)" : ""
                return "\(name): \(accepted) allowed, \(e.uncertain.count) uncertain\(merged)"
            }
        }
    }

    /// The cached entry of `key` (`state * 2`, plus 1 at the bottom), unretained: the cache holds it for the
    /// grammar's life. Lock-free (`MaskCacheSlots`) except for keys past the slots' directory.
    @inline(__always)
    func cachedEntry(_ key: Int32) -> Unmanaged<MaskCacheEntry>? {
        if slots.covers(key) { return slots.entry(key) }
        return cache.withLock { c in c.entries[key].map { Unmanaged.passUnretained($0) } }
    }

    /// Stores `entry` unless another thread did first; returns the entry to use, unretained (the cache holds
    /// it). Past the cache's byte budget the state is stored, and used, as dense: walked in full.
    func store(_ entry: MaskCacheEntry, for key: Int32) -> Unmanaged<MaskCacheEntry> {
        let limit = limits.maxCacheBytes
        return cache.withLock { c in
            if let e = c.entries[key] { return Unmanaged.passUnretained(e) }
            let kept = c.bytes + entry.byteCount > limit ? MaskCacheEntry.dense : entry
            c.entries[key] = kept
            c.bytes += kept.byteCount
            _ = slots.publish(kept, for: key)
            return Unmanaged.passUnretained(kept)
        }
    }
}

/// The former free-function spelling of `CompiledGrammar(_:vocabulary:limits:)`. Deprecated so that
/// there is one way to compile: the initializer, which also takes a `CompileBudget`.
@available(*, deprecated, renamed: "CompiledGrammar.init(_:vocabulary:limits:)")
public func compile(_ grammar: Grammar, _ vocabulary: VocabularyIndex, limits: MaskLimits = MaskLimits()) throws(GrammarCompileError) -> CompiledGrammar {
    try CompiledGrammar(grammar, vocabulary: vocabulary, limits: limits)
}

/// Raw views of the automaton and the vocabulary index, for the hot loops.
struct AutomatonTables: @unchecked Sendable {
    // @unchecked: plain pointers into buffers owned by a `CompiledGrammar` (its automaton) and its
    // `VocabularyIndex`, which outlive every use (a matcher holds its compiled grammar). The automaton
    // fills rows lazily under its lock; see `GrammarAutomaton` for why lock-free reads are safe. Read
    // `next`, `flags`, `callStart` and `calls` only through relaxed atomic loads (`entry`, `stateFlags`,
    // `guided_load_i32`).
    let next: UnsafeMutablePointer<Int32>
    let flags: UnsafeMutablePointer<UInt8>
    let callStart: UnsafeMutablePointer<Int32>
    let calls: UnsafeMutablePointer<Int32>
    let classOf: UnsafeMutablePointer<UInt8>
    let classCount: Int
    let trie: UnsafeMutablePointer<TokenTrie.Node>
    let trieCount: Int
    let tokenBytes: UnsafeMutablePointer<UInt8>
    let tokenOffsets: UnsafeMutablePointer<UInt32>
    /// The vocabulary trie's depth (its longest token): read here rather than through the vocabulary
    /// index, whose reference count every thread would write.
    let trieMaxDepth: Int
    unowned(unsafe) let automaton: GrammarAutomaton

    init(_ a: GrammarAutomaton, vocabulary v: VocabularyIndex) {
        automaton = a
        next = a.next
        flags = a.flags
        callStart = a.callStart
        calls = a.calls
        classOf = a.classOfPointer
        classCount = a.classCount
        trie = v.nodes.baseAddress!
        trieCount = v.nodeCount
        tokenBytes = v.tokenBytes.baseAddress!
        tokenOffsets = v.tokenOffsets.baseAddress!
        trieMaxDepth = v.trie.maxDepth
    }

    /// The state after reading a byte of class `cls` in state `q` (-1: none), computing q's row first
    /// if no matcher has read it yet.
    @inline(__always)
    func target(_ q: Int32, _ cls: Int) -> Int32 {
        let v = entry(q, cls)
        return v != 0 ? v : automaton.materialize(q, cls)
    }

    /// The table entry of state `q` and class `cls` as it is now (0: not computed yet). Every read of
    /// the tables is a relaxed atomic load: the builder may be writing other entries at the same time.
    @inline(__always)
    func entry(_ q: Int32, _ cls: Int) -> Int32 {
        guided_load_i32(next + (Int(q) &* classCount &+ cls))
    }

    /// `accepting | hasBytes | hasCalls` of a state reached through an entry.
    @inline(__always)
    func stateFlags(_ q: Int32) -> UInt8 {
        guided_load_u8(flags + Int(q))
    }
}
