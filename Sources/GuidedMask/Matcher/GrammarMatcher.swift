/// The state of one sequence being generated under a `CompiledGrammar`: which tokens may come next,
/// and what has been accepted so far.
///
/// A value type: `fork()` (or plain assignment) copies it cheaply (its arrays are shared copy-on-write
/// until one copy changes), so a matcher can be handed to another task. Each copy is used by one task
/// at a time; the compiled grammar they share is thread-safe.
///
/// The loop: `fillNextTokenMask(into:)`, sample a token allowed by the mask, `accept(token:)`, repeat;
/// stop when an EOS token is accepted (`isTerminated`).
///
/// Errors: a token or bytes the grammar does not allow throw `tokenRejected`/`bytesRejected` and leave
/// the matcher unchanged. Any other error (limits) fails the matcher closed: every later call throws
/// `.failed(firstError)` until `reset()`.
public struct GrammarMatcher: Sendable {
    public let compiled: CompiledGrammar
    /// `compiled`'s exhaustion flag, checked at every mask and accept (`isExhausted`). Reached through
    /// `compiled`, the check retained and released the grammar, a reference count that every thread
    /// masking a matcher of the grammar writes; `compiled` keeps the flag alive.
    let exhaustion: Unmanaged<ExhaustionFlag>
    var isExhausted: Bool { exhaustion._withUnsafeGuaranteedRef { $0.isSet } }

    /// The configuration after one accepted token or byte string: 24 bytes, so that a long history
    /// stays small.
    struct Checkpoint: Sendable {
        var setStart: Int32
        var setEnd: Int32
        var nodeCount: Int32
        var position: Int32
        /// Tokens accepted in a row with the parse inside a token budget (`GrammarExpr.tokenBudget`).
        var budgetCount: Int32 = 0
        var flags: UInt8

        init(setStart: Int32, setEnd: Int32, nodeCount: Int32, bytePosition: Int, canEnd: Bool, terminated: Bool) {
            self.setStart = setStart; self.setEnd = setEnd; self.nodeCount = nodeCount
            position = Int32(truncatingIfNeeded: bytePosition)
            flags = (canEnd ? 1 : 0) | (terminated ? 2 : 0)
        }
        var bytePosition: Int { Int(position) }
        var canEnd: Bool { flags & 1 != 0 }
        var terminated: Bool {
            get { flags & 2 != 0 }
            set { flags = newValue ? flags | 2 : flags & ~2 }
        }
    }

    var engine = StackEngine()
    /// Closed stack sets of every checkpoint, concatenated.
    var sets: [Int32] = []
    /// One per accepted token or byte string, plus the initial state.
    var checkpoints: [Checkpoint] = []
    var failure: MatcherError?
    var walk = WalkScratch()
    /// Scratch of the slice checks (`SliceCheck.swift`).
    var visited = VisitedSet()
    /// The items of arrays of distinct strings read so far, and the reader's position at each checkpoint
    /// (`distinctPositions[i]` goes with `checkpoints[i]`); both unused where the grammar has no such
    /// array (`tracksDistinct`).
    var distinct = DistinctItems()
    var distinctPositions: [DistinctItems.Position] = []
    let tracksDistinct: Bool
    /// The strings of counted length being read (`CountedStrings`) and the reader's lanes at each
    /// checkpoint (`countedPositions[i]` goes with `checkpoints[i]`); unused where the grammar has no such
    /// string (`tracksCounted`).
    var counted = CountedStrings()
    var countedPositions: [CountedStrings.Position] = []
    let tracksCounted: Bool

    /// How many accepted tokens `rollback` can undo at least; nil: all of them (the history then grows
    /// with the document, about 30-40 bytes per token).
    public let maxRollback: Int?

    /// The default rollback window: far more than speculative decoding or jump-forward re-tokenization
    /// undo, and small enough that a matcher stays within a few tens of KB mid-document however long
    /// the document (servers keep thousands of matchers).
    public static let defaultMaxRollback = 256

    /// - Parameter maxRollback: keep enough history to undo this many accepts (default 256; nil:
    ///   unlimited). A bounded window keeps a matcher's memory constant on long documents.
    public init(_ compiled: CompiledGrammar, maxRollback: Int? = GrammarMatcher.defaultMaxRollback) {
        self.compiled = compiled
        exhaustion = Unmanaged.passUnretained(compiled.automaton.exhaustionFlag)
        self.maxRollback = maxRollback.map { max(0, $0) }
        tracksDistinct = compiled.automaton.hasDistinctItems
        tracksCounted = !compiled.automaton.countedLengths.isEmpty
        reset()
    }

    /// Back to the start of the grammar (clears a failure too).
    public mutating func reset() {
        failure = nil
        engine = StackEngine()
        sets = []
        checkpoints = []
        let root = engine.make(compiled.startState, StackEngine.bottom)
        engine.items = [root]
        let closed = engine.close(0, 1, compiled.tables, maxStacks: compiled.limits.maxStacks)
        sets.append(contentsOf: engine.items[closed.lo..<closed.hi])
        engine.items.removeAll(keepingCapacity: true)
        checkpoints = [Checkpoint(setStart: 0, setEnd: Int32(sets.count), nodeCount: Int32(engine.nodes.count),
                                  bytePosition: 0, canEnd: closed.accept, terminated: false)]
        if tracksDistinct {
            distinct.bytes.removeAll(keepingCapacity: true)
            distinct.items.removeAll(keepingCapacity: true)
            distinct.forgetFilter()
            distinctPositions = [DistinctItems.Position()]
        }
        if tracksCounted { countedPositions = [CountedStrings.Position()] }
    }

    /// A copy to explore from; changes to one do not affect the other.
    public func fork() -> GrammarMatcher { self }

    /// True when the input so far is a complete sentence (EOS is allowed now).
    public var canTerminate: Bool { failure == nil && checkpoints[checkpoints.count - 1].canEnd }
    /// True once an EOS token was accepted.
    public var isTerminated: Bool { checkpoints[checkpoints.count - 1].terminated }
    /// The sticky error, if the matcher failed.
    public var error: MatcherError? { failure }
    /// Bytes accepted since the start.
    public var bytePosition: Int { checkpoints[checkpoints.count - 1].bytePosition }
    /// Number of accepted tokens / byte strings that `rollback` can undo.
    public var rollbackAvailable: Int { checkpoints.count - 1 }

    var current: Checkpoint { checkpoints[checkpoints.count - 1] }

    /// Accepts one token. Special tokens: an EOS token is accepted exactly when `canTerminate`; others
    /// never. Ids past the tokenizer (padding) never.
    /// - Throws: `tokenRejected` (matcher unchanged), or a sticky error.
    public mutating func accept(token: Int) throws(MatcherError) {
        if let failure { throw .failed(failure) }
        let vocab = compiled.vocabulary.vocabulary
        let cp = current
        if vocab.eosTokenIDs.contains(token) {
            guard cp.canEnd || cp.terminated else { throw .tokenRejected(token: token, position: cp.bytePosition) }
            var next = cp
            next.terminated = true
            next.setStart = next.setEnd   // nothing follows EOS
            checkpoints.append(next)
            if tracksDistinct { distinctPositions.append(distinctPositions[distinctPositions.count - 1]) }
            if tracksCounted { countedPositions.append(countedPositions[countedPositions.count - 1]) }
            return
        }
        let symbols = compiled.symbols
        if !symbols.isEmpty && token >= 0 && token < vocab.tokenCount {
            // A token the grammar names is read as its symbol, never as its bytes; an excluded one not at all.
            let cls = symbols.terminalClass(token)
            if cls >= 0 {
                guard !cp.terminated else { throw .tokenRejected(token: token, position: cp.bytePosition) }
                let region = budgetRegion(of: cp)
                let length = Int(vocab.offsets[token + 1] - vocab.offsets[token])
                guard try advance(symbol: cls, length: length) else { throw .tokenRejected(token: token, position: cp.bytePosition) }
                if !symbols.budgetClasses.isEmpty { try countBudget(region: region, before: cp) }
                return
            }
            if symbols.isExcluded(token) { throw .tokenRejected(token: token, position: cp.bytePosition) }
        }
        guard !cp.terminated, token >= 0, token < vocab.tokenCount, !vocab.isSpecial(token) else {
            throw .tokenRejected(token: token, position: cp.bytePosition)
        }
        let start = Int(vocab.offsets[token]), end = Int(vocab.offsets[token + 1])
        guard end > start else { throw .tokenRejected(token: token, position: cp.bytePosition) }
        let region = symbols.budgetClasses.isEmpty ? -1 : budgetRegion(of: cp)
        let ok = try advance(bytes: vocab.bytes, start, end)
        if ok >= 0 { throw .tokenRejected(token: token, position: cp.bytePosition) }
        if !symbols.budgetClasses.isEmpty { try countBudget(region: region, before: cp) }
    }

    /// Accepts raw bytes (e.g. a forced continuation, or text outside the tokenizer).
    /// - Throws: `bytesRejected` with the offset of the first refused byte (matcher unchanged).
    public mutating func accept(bytes: [UInt8]) throws(MatcherError) {
        if let failure { throw .failed(failure) }
        let cp = current
        guard !cp.terminated else { throw .alreadyTerminated }
        if bytes.isEmpty {
            let start = Int32(sets.count)
            sets.append(contentsOf: sets[Int(cp.setStart)..<Int(cp.setEnd)])
            var same = cp
            same.setStart = start; same.setEnd = Int32(sets.count)
            checkpoints.append(same)
            if tracksDistinct { distinctPositions.append(distinctPositions[distinctPositions.count - 1]) }
            if tracksCounted { countedPositions.append(countedPositions[countedPositions.count - 1]) }
            return
        }
        let bad = try advance(bytes: bytes, 0, bytes.count)
        if bad >= 0 { throw .bytesRejected(offset: bad, position: cp.bytePosition + bad) }
    }

    /// Undoes the last `n` accepted tokens / byte strings.
    public mutating func rollback(_ n: Int) throws(MatcherError) {
        if let failure { throw .failed(failure) }
        guard n >= 0, n <= checkpoints.count - 1 else { throw .rollbackTooFar(requested: n, available: checkpoints.count - 1) }
        if n == 0 { return }
        checkpoints.removeLast(n)
        if tracksDistinct {
            distinctPositions.removeLast(n)
            distinct.truncate(to: distinctPositions[distinctPositions.count - 1])
        }
        if tracksCounted { countedPositions.removeLast(n) }
        let cp = current
        if sets.count > Int(cp.setEnd) { sets.removeLast(sets.count - Int(cp.setEnd)) }
        engine.truncate(nodes: Int(cp.nodeCount), items: 0)
    }

    /// Reads one symbol class (a token terminal) and commits on success (`length`: the token's bytes,
    /// for `bytePosition`). False: refused, nothing committed.
    private mutating func advance(symbol cls: Int, length: Int) throws(MatcherError) -> Bool {
        try advance(bytes: [], 0, 1, symbol: cls, length: length) < 0
    }

    /// Runs bytes (or, with `symbol >= 0`, that one symbol class) through the stacks and commits on
    /// success. Returns -1, or the offset of the first refused byte (nothing committed).
    private mutating func advance(bytes: [UInt8], _ start: Int, _ end: Int, symbol: Int = -1,
                                  length: Int = 0) throws(MatcherError) -> Int {
        let t = compiled.tables
        let cp = current
        engine.items.removeAll(keepingCapacity: true)
        engine.items.append(contentsOf: sets[Int(cp.setStart)..<Int(cp.setEnd)])
        var lo = 0, hi = engine.items.count
        var canEnd = cp.canEnd
        let reading = tracksDistinct && symbol < 0
        var position = reading ? distinctPositions[distinctPositions.count - 1] : DistinctItems.Position()
        let counting = tracksCounted && symbol < 0
        var lanes = counting ? countedPositions[countedPositions.count - 1] : CountedStrings.Position()
        for k in start..<end {
            let cls = symbol >= 0 ? symbol : Int(t.classOf[Int(bytes[k])])
            if reading && position.active && distinct.read(bytes[k], &position) {
                // This quote closes an item equal to an earlier one: only the parses outside the array read it.
                (lo, hi) = dropInsideDistinct(lo, hi)
            }
            // A counted string's closing quote: only the parses whose string's length is within bounds read it.
            let lanesWereOpen = counting && lanes.isOpen
            if lanesWereOpen { (lo, hi) = readCounted(bytes[k], &lanes, lo, hi) }
            let raw = lo == hi ? engine.items.count : engine.step(lo, hi, cls: cls, t)
            if raw == engine.items.count {
                engine.truncate(nodes: Int(cp.nodeCount), items: 0)
                if reading { distinct.truncate(to: distinctPositions[distinctPositions.count - 1]) }
                try checkAutomaton()
                return k - start
            }
            let c = engine.close(raw, engine.items.count, t, maxStacks: compiled.limits.maxStacks)
            if engine.overflow {
                engine.overflow = false
                engine.truncate(nodes: Int(cp.nodeCount), items: 0)
                if reading { distinct.truncate(to: distinctPositions[distinctPositions.count - 1]) }
                try fail(.tooManyStacks(limit: compiled.limits.maxStacks))
            }
            lo = c.lo; hi = c.hi; canEnd = c.accept
            if reading && position.active && !compiled.automaton.distinctLists.isEmpty {
                // In an array of a language with an end: no parse inside it may go where too few values
                // are left (`DistinctItems.feasible`).
                let event = DistinctItems.event(after: bytes[k], position)
                if event != .none, let kept = dropInfeasible(lo, hi, event, position) {
                    if kept.lo == kept.hi {
                        engine.truncate(nodes: Int(cp.nodeCount), items: 0)
                        distinct.truncate(to: distinctPositions[distinctPositions.count - 1])
                        try checkAutomaton()
                        return k - start
                    }
                    (lo, hi) = kept
                }
            }
            if reading { updateDistinct(after: bytes[k], &position, lo, hi) }
            if counting && !lanesWereOpen && bytes[k] == UInt8(ascii: "\"") { try openLanes(&lanes, lo, hi) }
        }
        if counting && lanes.isOpen {
            // No parse may stop inside a counted string where no completion lands within its bounds.
            let kept = dropUnfinishable(lanes, lo, hi)
            if kept.lo == kept.hi {
                engine.truncate(nodes: Int(cp.nodeCount), items: 0)
                if reading { distinct.truncate(to: distinctPositions[distinctPositions.count - 1]) }
                try checkAutomaton()
                return end - 1 - start
            }
            (lo, hi) = kept
        }
        if isExhausted {
            engine.truncate(nodes: Int(cp.nodeCount), items: 0)
            if reading { distinct.truncate(to: distinctPositions[distinctPositions.count - 1]) }
            try checkAutomaton()
        }
        collectGarbage(above: Int(cp.nodeCount), liveLo: lo, liveHi: hi)
        let setStart = Int32(sets.count)
        sets.append(contentsOf: engine.items[lo..<hi])
        engine.items.removeAll(keepingCapacity: true)
        checkpoints.append(Checkpoint(setStart: setStart, setEnd: Int32(sets.count), nodeCount: Int32(engine.nodes.count),
                                      bytePosition: cp.bytePosition + (symbol >= 0 ? length : end - start), canEnd: canEnd, terminated: false))
        if tracksDistinct { distinctPositions.append(reading ? distinct.saved(position) : distinctPositions[distinctPositions.count - 1]) }
        if tracksCounted { countedPositions.append(counting ? lanes : countedPositions[countedPositions.count - 1]) }
        if let window = maxRollback, checkpoints.count > 2 * window + 16 { trimHistory(keeping: window) }
        return -1
    }

    /// Forgets all but the last `window` accepts: drops their stack sets and the frames only they used,
    /// renumbering the rest (frames keep their order, so each checkpoint's arena size stays a prefix).
    /// Runs every `window + 16` accepts, so its cost is O(1) per token amortized.
    private mutating func trimHistory(keeping window: Int) {
        let drop = checkpoints.count - 1 - window
        guard drop > 0 else { return }
        checkpoints.removeFirst(drop)
        if tracksDistinct { distinctPositions.removeFirst(drop) }
        if tracksCounted { countedPositions.removeFirst(drop) }
        let setBase = Int(checkpoints[0].setStart)
        sets.removeFirst(setBase)
        // Mark every frame reachable from a remaining stack set.
        let count = engine.nodes.count
        engine.remap.removeAll(keepingCapacity: true)
        engine.remap.append(contentsOf: repeatElement(-1, count: count))
        for id in sets {
            var x = Int(id)
            while x >= 0 && engine.remap[x] == -1 {
                engine.remap[x] = -2
                x = Int(engine.nodes[x].parent)
            }
        }
        var w = 0
        for i in 0..<count where engine.remap[i] == -2 {
            let n = engine.nodes[i]
            engine.nodes[w] = StackNode(state: n.state, parent: n.parent >= 0 ? engine.remap[Int(n.parent)] : n.parent)
            engine.remap[i] = Int32(w)
            w += 1
        }
        // New arena size of each checkpoint: frames kept below its old size.
        var prefix = [Int32](repeating: 0, count: count + 1)
        for i in 0..<count { prefix[i + 1] = prefix[i] + (engine.remap[i] >= 0 ? 1 : 0) }
        engine.nodes.removeLast(count - w)
        for i in sets.indices { sets[i] = engine.remap[Int(sets[i])] }
        for k in checkpoints.indices {
            checkpoints[k].setStart -= Int32(setBase)
            checkpoints[k].setEnd -= Int32(setBase)
            checkpoints[k].nodeCount = prefix[Int(checkpoints[k].nodeCount)]
        }
    }

    /// Drops the frames made while reading the last token that no stack of the new configuration uses
    /// (intermediate tops, dead branches), so the arena grows by the live frames only. Frames are
    /// compacted in place: a frame's parent always has a smaller index than the frame.
    private mutating func collectGarbage(above base: Int, liveLo: Int, liveHi: Int) {
        let count = engine.nodes.count - base
        if count <= 0 { return }
        engine.remap.removeAll(keepingCapacity: true)
        engine.remap.append(contentsOf: repeatElement(-1, count: count))
        for j in liveLo..<liveHi {
            var x = Int(engine.items[j])
            while x >= base && engine.remap[x - base] == -1 {
                engine.remap[x - base] = -2
                x = Int(engine.nodes[x].parent)
            }
        }
        var w = base
        for i in 0..<count where engine.remap[i] == -2 {
            let n = engine.nodes[base + i]
            let p = n.parent >= Int32(base) ? engine.remap[Int(n.parent) - base] : n.parent
            engine.nodes[w] = StackNode(state: n.state, parent: p)
            engine.remap[i] = Int32(w)
            w += 1
        }
        engine.nodes.removeLast(engine.nodes.count - w)
        for j in liveLo..<liveHi where Int(engine.items[j]) >= base {
            engine.items[j] = engine.remap[Int(engine.items[j]) - base]
        }
    }

    /// A transition the automaton could not build within its limits reads as "none": fail closed
    /// rather than report a rejection (or an acceptance) that rests on it.
    mutating func checkAutomaton() throws(MatcherError) {
        if isExhausted { try fail(.automatonTooLarge(limit: compiled.limits.maxAutomatonStates)) }
    }

    mutating func fail(_ e: MatcherError) throws(MatcherError) -> Never {
        failure = e
        throw e
    }

    /// Bytes of memory this matcher holds (arena, stack sets, history, scratch).
    public var memoryFootprint: Int {
        engine.nodes.capacity * 8 + engine.items.capacity * 4 + sets.capacity * 4
            + checkpoints.capacity * MemoryLayout<Checkpoint>.stride + walk.byteCount + visited.byteCount + 256
            + (tracksDistinct ? distinct.byteCount + distinctPositions.capacity * MemoryLayout<DistinctItems.Position>.stride : 0)
            + (tracksCounted ? counted.marks.byteCount + countedPositions.capacity * MemoryLayout<CountedStrings.Position>.stride : 0)
    }
}
