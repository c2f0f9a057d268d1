import CGuidedAtomics
import GuidedGrammar
import GuidedSync
import Synchronization

/// The deterministic automaton of a grammar, built lazily: one subset-construction state per set of NFA
/// states (all from one kept rule), over byte classes, with call edges into other rules' start states.
///
/// A parse configuration is a stack of states: the top is where the current rule is; each state below
/// is where its caller resumes (already past the call edge). A byte moves the top state by `next`; a
/// state with call edges pushes the callee's start; an accepting top state pops. NFA states that cannot
/// reach their rule's end, and calls of rules that derive no string, are left out of every state, so
/// every stack that survives a byte can still be completed: "some stack survives" means exactly "the
/// bytes so far are a prefix of a sentence of the grammar".
///
/// Compiling makes only the grammar's start state (with those its call edges name: callees' starts and
/// return states); another rule's start is made with the first state that calls it. A transition is
/// computed the first time a matcher reads a byte of its class in its state (`materialize`), so a large
/// JSON Schema costs at compile time what its NFA costs, and at run time what the matchers actually
/// visit (a trie walk in a state typically tries a few byte classes of most states it reaches, not all
/// of them). The tables are reserved at their maximum size up front (zero-filled pages the kernel maps
/// only when touched, recycled across grammars by `ZeroedRegions`) so they never move while matchers
/// read them without a lock.
final class GrammarAutomaton: @unchecked Sendable {
    // @unchecked: the raw tables are written only inside `builder`'s lock, and only in rows/entries no
    // reader can reach yet: a row entry pointing to a new state is stored after the state's flags and
    // calls are complete, and a reader reaches a state only through such an entry, the start state
    // made in `init`, or a call edge of a state it reached (a callee's start state is made and completed
    // with the state whose call edge names it, before that state is published). Readers that see an
    // entry still zero take the lock. The writer puts a release fence before publishing; the reader's
    // loads of the state depend on the entry's value (address dependency), which orders them on every
    // architecture Swift targets. Every store to the tables after `init` and every lock-free load is a
    // relaxed atomic (CGuidedAtomics): the same instructions as plain accesses, but no data race in the
    // memory model, and ThreadSanitizer checks the rest of the engine without a suppression.
    static let accepting: UInt8 = 1
    static let hasBytes: UInt8 = 2
    static let hasCalls: UInt8 = 4

    let classCount: Int
    /// Byte classes come first (`0 ..< byteClassCount`); the symbol classes of token terminals and
    /// budget cuts follow (see `ByteClasses`).
    let byteClassCount: Int
    /// Token terminals, by increasing id: token `terminalTokens[k]` is class `byteClassCount + k`.
    let terminalTokens: [Int]
    /// Distinct token budgets: budget `budgets[k]` is class `byteClassCount + terminalTokens.count + k`.
    let budgets: [Int]
    /// `next[state * classCount + class]`: the next state; -1 no transition; 0 not computed yet (state
    /// 0 is a placeholder that no transition leads to).
    let next: UnsafeMutablePointer<Int32>
    /// Per state: `accepting | hasBytes | hasCalls`.
    let flags: UnsafeMutablePointer<UInt8>
    /// Calls of state q: `calls[2i]` = callee start state, `calls[2i+1]` = return state, for
    /// `i in callStart[q] ..< callStart[q + 1]`.
    let callStart: UnsafeMutablePointer<Int32>
    let calls: UnsafeMutablePointer<Int32>
    let classOf: [UInt8]
    /// `classOf` as a raw buffer for the hot loops.
    let classOfPointer: UnsafeMutablePointer<UInt8>
    let startState: Int32
    let ruleNames: [String]
    let nfaStateCount: Int
    let limits: MaskLimits
    /// What each rule's callers read first after it returns (prunes the uncertain tokens of cache walks).
    let follow: RuleFollow

    private let capacity: Int
    private let builder: Locked<Builder>
    private let exhausted: ExhaustionFlag

    init(grammar: Grammar, limits: MaskLimits) throws(GrammarCompileError) {
        let nfa = try GrammarNFA(grammar: grammar, limits: limits)
        let classes = nfa.classes
        self.limits = limits
        classCount = classes.count
        byteClassCount = classes.byteCount
        terminalTokens = classes.tokens
        budgets = classes.budgets
        classOf = classes.classOf
        classOfPointer = .allocate(capacity: 256)
        for b in 0..<256 { classOfPointer[b] = classes.classOf[b] }
        ruleNames = nfa.ruleNames
        nfaStateCount = nfa.stateCount
        hasDistinctItems = nfa.ruleDistinctItems.contains(true)
        distinctValues = nfa.ruleDistinctValues.indices.map { k in
            if let values = nfa.ruleDistinctValues[k] { return DistinctValues(values: values, minimum: nfa.ruleDistinctMinimum[k]) }
            return nfa.ruleDistinctLanguage[k].map { DistinctValues(language: $0, minimum: nfa.ruleDistinctMinimum[k]) }
        }
        distinctLists = distinctValues.compactMap { $0 }
        distinctByValue = nfa.ruleDistinctByValue
        distinctZeroIsDecided = nfa.ruleDistinctZero
        hasDistinctValueItems = nfa.ruleDistinctByValue.contains(true)
        hasNestedDistinct = hasDistinctValueItems && nfa.ruleDistinctItems.indices.contains { nfa.ruleDistinctItems[$0] && !nfa.ruleDistinctByValue[$0] }
        var counted: [CountedLength] = []
        countedIndex = nfa.ruleCountedLength.map { c in
            guard let c else { return -1 }
            if let i = counted.firstIndex(where: { $0 === c }) { return Int32(i) }
            counted.append(c)
            return Int32(counted.count - 1)
        }
        countedLengths = counted
        follow = RuleFollow(nfa: nfa, classCount: classes.count)
        let states = max(2, min(limits.maxAutomatonStates, Int(Int32.max) - 2) + 1)
        let callEdges = max(1, min(limits.maxCallEdges, Int(Int32.max) / 2))
        let (cells, overflow) = states.multipliedReportingOverflow(by: classes.count)
        let nextTable: UnsafeMutablePointer<Int32>? = overflow ? nil : ZeroedRegions.take(cells)
        let flagTable: UnsafeMutablePointer<UInt8>? = ZeroedRegions.take(states)
        let callStartTable: UnsafeMutablePointer<Int32>? = ZeroedRegions.take(states + 1)
        let callTable: UnsafeMutablePointer<Int32>? = ZeroedRegions.take(2 * callEdges)
        guard let nextTable, let flagTable, let callStartTable, let callTable else {
            // Give back whatever was reserved before the refusal (none of it written).
            nextTable.map { ZeroedRegions.give($0, written: 0) }; flagTable.map { ZeroedRegions.give($0, written: 0) }
            callStartTable.map { ZeroedRegions.give($0, written: 0) }; callTable.map { ZeroedRegions.give($0, written: 0) }
            classOfPointer.deallocate()
            throw .automatonTooLarge(rule: nfa.ruleNames[0], limit: limits.maxAutomatonStates)
        }
        capacity = states
        next = nextTable
        flags = flagTable
        callStart = callStartTable
        calls = callTable
        exhausted = ExhaustionFlag()
        var b = Builder(nfa: nfa, classCount: classes.count, capacity: capacity, maxCalls: callEdges,
                        next: next, flags: flags, callStart: callStart, calls: calls, exhausted: exhausted)
        let start = b.startState(ofRule: 0)
        b.completePending()
        let failed = b.exhausted.isSet
        builder = Locked(b)
        guard start > 0, !failed else {
            let (states, callCount) = builder.withLock { ($0.stateCount, $0.callCount) }
            Self.release(next, flags, callStart, calls, states: states, classes: classCount, calls: callCount)
            classOfPointer.deallocate()
            throw .automatonTooLarge(rule: nfa.ruleNames[0], limit: limits.maxAutomatonStates)
        }
        startState = start
    }

    deinit {
        let (states, callCount) = builder.withLock { ($0.stateCount, $0.callCount) }
        Self.release(next, flags, callStart, calls, states: states, classes: classCount, calls: callCount)
        classOfPointer.deallocate()
    }

    /// Gives the tables back to the pool, saying how much of each the states made wrote: rows and flags
    /// of states below `states`, call offsets up to `states`, and `calls` call edges.
    private static func release(_ next: UnsafeMutablePointer<Int32>, _ flags: UnsafeMutablePointer<UInt8>,
                                _ callStart: UnsafeMutablePointer<Int32>, _ callTable: UnsafeMutablePointer<Int32>,
                                states: Int, classes: Int, calls: Int) {
        ZeroedRegions.give(next, written: states * classes)
        ZeroedRegions.give(flags, written: states)
        ZeroedRegions.give(callStart, written: states + 1)
        ZeroedRegions.give(callTable, written: 2 * calls)
    }

    /// Computes the transition of `state` over class `cls` if no one has yet, and returns it. Called by
    /// the matchers when they read a zero entry.
    @inline(never)
    func materialize(_ state: Int32, _ cls: Int) -> Int32 {
        builder.withLock { b in b.buildEntry(state, cls) }
    }

    /// Whether some kept rule is an array of distinct strings (`GrammarRule.distinctStringItems`).
    let hasDistinctItems: Bool
    /// Per kept rule: the values of an array of distinct strings from a finite language, else nil.
    let distinctValues: [DistinctValues?]
    /// The non-nil `distinctValues`.
    let distinctLists: [DistinctValues]
    /// Per kept rule: an array whose items are compared as JSON values (`GrammarRule.distinctByValue`),
    /// and whether its numbers are integers (`0` decided at its digit).
    let distinctByValue: [Bool]
    let distinctZeroIsDecided: [Bool]
    /// Whether some kept rule has `distinctByValue`.
    let hasDistinctValueItems: Bool
    /// Whether arrays of distinct strings may open inside the items of an array of values (both kinds exist).
    let hasNestedDistinct: Bool

    /// The counted lengths of strings in the grammar (`GrammarRule.countedLength`), one per distinct
    /// value, and per kept rule the index of its own (-1: none).
    let countedLengths: [CountedLength]
    let countedIndex: [Int32]

    /// Where `state` stands toward strings of counted length: `CountedStrings.outside`, or
    /// `CountedStrings.inside(i)` for a state of a rule of `countedLengths[i]`'s string.
    func countedMark(of state: Int32) -> Int32 {
        builder.withLock { b in
            guard state > 0, Int(state) < b.sets.count, let s = b.sets[Int(state)].first else { return CountedStrings.outside }
            let i = countedIndex[RuleFollow.ruleOf(s, b.nfa)]
            return i >= 0 ? CountedStrings.inside(Int(i)) : CountedStrings.outside
        }
    }

    /// Where `state` stands toward the arrays of distinct strings (`DistinctItems.outside`, `.entry`, or
    /// `DistinctItems.inside(rule)` with the kept rule's index).
    func distinctMark(of state: Int32) -> Int32 {
        builder.withLock { b in
            guard state > 0, Int(state) < b.sets.count, let s = b.sets[Int(state)].first else { return DistinctItems.outside }
            let k = RuleFollow.ruleOf(s, b.nfa)
            guard b.nfa.ruleDistinctItems[k] else { return DistinctItems.outside }
            return b.ruleStartState[k] == state ? DistinctItems.entry : DistinctItems.inside(k)
        }
    }

    /// The kept rule a state belongs to (all of its NFA states are from one rule); nil for the placeholder.
    func ruleIndex(of state: Int32) -> Int? {
        builder.withLock { b in
            guard state > 0, Int(state) < b.sets.count, let s = b.sets[Int(state)].first else { return nil }
            return RuleFollow.ruleOf(s, b.nfa)
        }
    }

    /// True once a row could not be completed within `MaskLimits` (the missing transitions read as
    /// "no transition"): every matcher then fails with `MatcherError.automatonTooLarge`.
    var isExhausted: Bool { exhausted.isSet }
    /// The flag itself, for matchers to check without reaching through the grammar (`GrammarMatcher`).
    var exhaustionFlag: ExhaustionFlag { exhausted }

    /// True when `state` reads every string of plain text by its own byte transitions, proved on its NFA
    /// states (`PlainTextProof`) without making the deterministic states the text passes through.
    /// `sliceEdges[u]`: the (byte class, next position) pairs of `SliceUTF8` position `u`.
    func readsAllPlainText(_ state: Int32, sliceEdges: [[(cls: Int, u: UInt8)]], totalWork: Int, pairLimit: Int? = nil) -> Bool {
        builder.withLock { b in b.readsAllPlainText(state, sliceEdges, totalWork: totalWork, pairLimit: pairLimit) }
    }

    /// `readsAllPlainText` where an earlier exploration already answered it for some NFA state of the
    /// set; false (not known) otherwise, and nothing is explored.
    func knownToReadAllPlainText(_ state: Int32) -> Bool {
        builder.withLock { b in b.knownToReadAllPlainText(state) }
    }

    /// Explorations the plain-text proof has started so far (for tests: which checks a state asked).
    var plainTextExplorations: Int { builder.withLock { $0.plainTextExplorations } }

    /// True when no plain text read from `state` can be followed by a control byte (`ControlByteProof`):
    /// every token made of plain text and then a control byte is then rejected there without a walk.
    func controlBytesDeadAfterPlainText(_ state: Int32, sliceEdges: [[(cls: Int, u: UInt8)]]) -> Bool {
        builder.withLock { b in b.controlBytesDeadAfterPlainText(state, sliceEdges, classOf: classOf) }
    }

    /// How many NFA states the deterministic state `state` stands for (0 for no state).
    func nfaSetSize(_ state: Int32) -> Int {
        builder.withLock { b in state > 0 && Int(state) < b.sets.count ? b.sets[Int(state)].count : 0 }
    }

    /// Bytes of NFA-state sets the states made so far hold: how much subset construction was done, for
    /// callers that bound the work they cause.
    var setBytesBuilt: Int { builder.withLock { $0.setBytes } }

    /// States made so far, and bytes their tables use.
    var statistics: (states: Int, transitions: Int, bytes: Int) {
        builder.withLock { b in
            (b.stateCount - 1, b.entryCount,
             b.stateCount * (classCount * 4 + 5) + b.callCount * 8 + b.setBytes + b.beyondSetBytes + b.partialRowBytes
                 + nfaStateCount * 24)
        }
    }
}

/// The lazy subset construction, behind `GrammarAutomaton`'s lock.
private struct Builder {
    let nfa: GrammarNFA
    let classCount: Int
    let capacity: Int
    let maxCalls: Int
    let next: UnsafeMutablePointer<Int32>
    let flags: UnsafeMutablePointer<UInt8>
    let callStart: UnsafeMutablePointer<Int32>
    let calls: UnsafeMutablePointer<Int32>
    let exhausted: ExhaustionFlag

    /// NFA set of each state (state 0: the placeholder), in closure order, not sorted.
    var sets = StateSets()
    /// Members written so far, in states of a member-set rule (`GrammarRule.tracksMembers`); 0 elsewhere.
    /// Part of a state's identity: the same NFA set with other members written is another state.
    var presence: [UInt64] = [0]
    /// Members of bit 64 and above written (`MemberBitsBeyond`), as ids in `beyondSets`; 0 elsewhere.
    /// Part of a state's identity, like `presence`.
    var beyond: [Int32] = [0]
    private var beyondSets: MemberBitsBeyondTable
    var beyondSetBytes: Int { beyondSets.bytes }
    var partialRowBytes: Int { partial.bytes }
    /// Order-independent hash of each state's set (see `closure`).
    private var setHashes: [UInt64] = [0]
    /// Open-addressed table of state ids by set hash (0: empty slot; a power of two long).
    private var table = [Int32](repeating: 0, count: 1024)
    /// Per kept rule: its start state, 0 until made (`startState(ofRule:)`).
    private(set) var ruleStartState: [Int32]
    var stateCount = 1
    var entryCount = 0
    var callCount = 0
    var setBytes = 0
    /// States made but whose flags and calls are not written yet, in id order.
    private var pending: [Int32] = []
    private var pendingDone = 0
    private var mark: [UInt32]
    private var generation: UInt32 = 0
    /// Per state (by id), its row while some of its groups are not made yet. An array, not a dictionary
    /// keyed by state: hashing the key twice per transition made was a tenth of making states.
    private var partial = PartialRows()
    /// Scratch of `makePartialRow`: the NFA targets of every class laid out flat, and where each starts.
    private var flatTargets: [Int32] = []
    private var classStart: [Int32] = []
    /// Scratch of `completePending`: the calls of the state being completed.
    private var callPairs: [(callee: Int32, target: Int32, order: Int32)] = []
    /// Scratch of `closure`: its work stack, kept between calls.
    private var scratchStack: [Int32] = []
    /// Scratch of `closure`: the set it found, in closure order (the first `count` it returns). `intern`
    /// copies it into a stored set only when the state is new: most closures find a state made before.
    private var closureSet: [Int32] = []
    /// Scratch of `completePending`: one callee's return targets.
    private var callTargets: [Int32] = []
    /// Scratch of `makePartialRow`: group ids by hash slot (-1 empty), the slots used, each group's hash.
    private var groupSlots: [Int32] = []
    private var usedSlots: [Int32] = []
    private var groupHashes: [UInt64] = []

    init(nfa: GrammarNFA, classCount: Int, capacity: Int, maxCalls: Int, next: UnsafeMutablePointer<Int32>,
         flags: UnsafeMutablePointer<UInt8>, callStart: UnsafeMutablePointer<Int32>, calls: UnsafeMutablePointer<Int32>,
         exhausted: ExhaustionFlag) {
        self.nfa = nfa
        self.classCount = classCount
        self.capacity = capacity
        self.maxCalls = maxCalls
        self.next = next
        self.flags = flags
        self.callStart = callStart
        self.calls = calls
        self.exhausted = exhausted
        mark = [UInt32](repeating: 0, count: nfa.stateCount)
        ruleStartState = [Int32](repeating: 0, count: nfa.ruleStart.count)
        beyondSets = MemberBitsBeyondTable(width: nfa.beyondWords)
        futuresHolder = nfa.memberFutures.map(FuturesHolder.init)
    }

    /// The NFA's member futures behind one reference: `closure` runs for every state made, and reading
    /// the struct of nine arrays out of `nfa` there copied it (nine retains and releases per closure).
    private final class FuturesHolder {
        let futures: MemberFutures
        init(_ futures: MemberFutures) { self.futures = futures }
    }
    private let futuresHolder: FuturesHolder?

    /// Made on the first question (most grammars never ask one).
    private var plainText: PlainTextProof? = nil

    /// Made on the first question, like `plainText`.
    private var controlBytes: ControlByteProof? = nil

    var plainTextExplorations: Int { plainText?.explorations ?? 0 }

    mutating func controlBytesDeadAfterPlainText(_ state: Int32, _ sliceEdges: [[(cls: Int, u: UInt8)]], classOf: [UInt8]) -> Bool {
        guard state > 0, Int(state) < sets.count else { return false }
        if controlBytes == nil {
            controlBytes = ControlByteProof(stateCount: nfa.stateCount, classCount: classCount, sliceEdges: sliceEdges, classOf: classOf)
        }
        return controlBytes!.holds(for: sets[Int(state)], nfa: nfa)
    }

    func knownToReadAllPlainText(_ state: Int32) -> Bool {
        guard state > 0, Int(state) < sets.count, let proof = plainText else { return false }
        return proof.anyKnownToReadAllPlainText(sets[Int(state)], nfa: nfa)
    }

    mutating func readsAllPlainText(_ state: Int32, _ sliceEdges: [[(cls: Int, u: UInt8)]], totalWork: Int, pairLimit: Int?) -> Bool {
        guard state > 0, Int(state) < sets.count else { return false }
        if plainText == nil { plainText = PlainTextProof(stateCount: nfa.stateCount, classCount: classCount) }
        return plainText!.anyReadsAllPlainText(sets[Int(state)], nfa: nfa, sliceEdges: sliceEdges, totalWork: totalWork,
                                               pairLimit: pairLimit)
    }

    /// The start state of kept rule `k`, made on first need: the grammar's at init, any other rule's when
    /// a state that calls it is completed. A large schema has hundreds of rules and a first mask enters a
    /// few; making every start at init (with the return states of their calls, and the member futures of
    /// each member-set rule) was about a sixth of compiling a Kubernetes schema's automaton. -1 for a rule
    /// that derives nothing, or when the state limit is reached. The state is completed with the pending
    /// ones (`completePending`).
    mutating func startState(ofRule k: Int) -> Int32 {
        let known = ruleStartState[k]
        if known != 0 { return known }
        guard nfa.productive[k] else { ruleStartState[k] = -1; return -1 }
        var entry = nfa.ruleStart[k]
        let c = withUnsafePointer(to: &entry) { closure(UnsafeBufferPointer(start: $0, count: 1)) }
        let state = intern(c, presence: 0, beyond: 0) ?? -1
        ruleStartState[k] = state
        return state
    }

    /// The ε-closure of `seeds` within live NFA states and its hash: the wrapping sum of a mix of each
    /// member, so the set needs no sorting to be found again. Its members stay marked with `generation`
    /// until the next closure, which is how `intern` compares sets.
    ///
    /// In a member-set rule, `written` is the members written so far, and states that cannot complete
    /// with them (`MemberFutures`) are left out (unmarked, so `intern` never counts them).
    private mutating func closure(_ seeds: UnsafeBufferPointer<Int32>, written: UInt64 = 0, beyond: Int32 = 0) -> (count: Int, hash: UInt64) {
        generation &+= 1
        if generation == 0 {
            for i in mark.indices { mark[i] = 0 }
            generation = 1
        }
        // The states of a JSON Schema object's key or value position can number thousands, and making
        // states is most of a first visit's cost: the search runs over raw buffers (no bounds or
        // uniqueness checks) and marks a state when it is pushed, so nothing is pushed twice.
        let g = generation
        var out = closureSet   // moved out and back, like the work stack
        closureSet = []
        out.removeAll(keepingCapacity: true)
        var hash: UInt64 = 0
        var work = scratchStack   // moved out and back, so its storage is reused, never copied
        scratchStack = []
        work.removeAll(keepingCapacity: true)
        let futures = futuresHolder   // one reference; `futures!.futures` is read in place, not copied
        var prune = false
        if let futures, !seeds.isEmpty {
            let rule = RuleFollow.ruleOf(seeds[0], nfa)
            if nfa.ruleTracks[rule] { futures.futures.prepare(rule: rule, nfa); prune = true }
        }
        beyondSets.sets[Int(beyond)].withUnsafeBufferPointer { beyond in
        nfa.live.withUnsafeBufferPointer { live in
        nfa.epsilonStart.withUnsafeBufferPointer { epsStart in
        nfa.epsilonTargets.withUnsafeBufferPointer { epsTargets in
        mark.withUnsafeMutableBufferPointer { mark in
            for seed in seeds where mark[Int(seed)] != g && live[Int(seed)] {
                if prune && !futures!.futures.canComplete(Int(seed), written: written, beyond: beyond) { continue }
                mark[Int(seed)] = g
                work.append(seed)
            }
            while let s = work.popLast() {
                out.append(s)
                hash &+= Self.mix(UInt64(UInt32(bitPattern: s)))
                let i = Int(s)
                var e = Int(epsStart[i])
                let end = Int(epsStart[i + 1])
                while e < end {
                    let t = epsTargets[e]
                    if mark[Int(t)] != g && live[Int(t)] && (!prune || futures!.futures.canComplete(Int(t), written: written, beyond: beyond)) {
                        mark[Int(t)] = g; work.append(t)
                    }
                    e += 1
                }
            }
        }}}}}
        scratchStack = work
        let count = out.count
        closureSet = out
        return (count, hash)
    }

    /// A 64-bit finalizer (xor-shift-multiply): spreads consecutive state numbers over all bits.
    @inline(__always)
    private static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The state of the closure just computed, made if new (nil when the state limit is reached).
    /// A stored set equals it when the counts match and every stored member carries the current mark.
    private mutating func intern(_ c: (count: Int, hash: UInt64), presence p: UInt64, beyond b: Int32) -> Int32? {
        var hash = p == 0 ? c.hash : c.hash &+ Self.mix(p ^ 0x5BD1_E995_0000_0001)
        if b != 0 { hash &+= Self.mix(UInt64(UInt32(bitPattern: b)) ^ 0x2F6B_9C3D_0000_0000) }
        let maskBits = table.count - 1
        var slot = Int(truncatingIfNeeded: hash) & maskBits
        while table[slot] != 0 {
            let id = Int(table[slot])
            if setHashes[id] == hash && presence[id] == p && beyond[id] == b && sets[id].count == c.count && sets[id].allSatisfy({ mark[Int($0)] == generation }) {
                return Int32(id)
            }
            slot = (slot + 1) & maskBits
        }
        guard stateCount < capacity else { exhausted.set(); return nil }
        let id = Int32(stateCount)
        stateCount += 1
        table[slot] = id
        sets.append(closureSet, count: c.count)
        setHashes.append(hash)
        presence.append(p)
        beyond.append(b)
        setBytes += c.count * 4 + 48
        pending.append(id)
        if stateCount * 2 > table.count { growTable() }
        return id
    }

    private mutating func growTable() {
        var bigger = [Int32](repeating: 0, count: table.count * 2)
        let maskBits = bigger.count - 1
        for id in 1..<stateCount {
            var slot = Int(truncatingIfNeeded: setHashes[id]) & maskBits
            while bigger[slot] != 0 { slot = (slot + 1) & maskBits }
            bigger[slot] = Int32(id)
        }
        table = bigger
    }

    /// Writes flags and calls of the states made since the last call, in id order (so each state's calls
    /// are contiguous); return states they intern are completed too.
    mutating func completePending() {
        while pendingDone < pending.count {
            let q = pending[pendingDone]
            pendingDone += 1
            var f: UInt8 = 0
            // (callee, return target) of each usable call, grouped by callee below: a sorted scratch
            // list, not a dictionary of arrays made per state.
            callPairs.removeAll(keepingCapacity: true)
            let p = presence[Int(q)], b = beyond[Int(q)]
            let tracker = nfa.hasMemberSets ? sets[Int(q)].first.map { RuleFollow.ruleOf($0, nfa) } ?? -1 : -1
            let tracks = tracker >= 0 && nfa.ruleTracks[tracker]
            for s in sets[Int(q)] {
                let i = Int(s)
                if nfa.isFinal[i] { f |= GrammarAutomaton.accepting }
                switch nfa.label[i] {
                case GrammarNFA.labelClasses where nfa.live[Int(nfa.target[i])]: f |= GrammarAutomaton.hasBytes
                case GrammarNFA.labelCall where nfa.usableCall(i): callPairs.append((nfa.callee[i], nfa.target[i], Int32(callPairs.count)))
                default: break
                }
            }
            // By callee, each callee's targets in the set's order: the closures below are seeded, and
            // their states numbered, as they always were.
            if callPairs.count > 1 { callPairs.sort { ($0.callee, $0.order) < ($1.callee, $1.order) } }
            var first = 0
            while first < callPairs.count {
                let k = callPairs[first].callee
                var end = first + 1
                while end < callPairs.count && callPairs[end].callee == k { end += 1 }
                callTargets.removeAll(keepingCapacity: true)
                for k in first..<end { callTargets.append(callPairs[k].target) }
                first = end
                // In a member-set rule: a member already written cannot be called again, a rule that
                // needs members only once they are all written; a member's return state has it written
                // (and, with counts, one more undeclared member where it is one).
                var returnPresence = p, returnBeyond = b
                if tracks {
                    guard let after = nfa.presence(after: p, tracker: tracker, calling: Int(k)),
                          beyondSets.sets[Int(b)].withUnsafeBufferPointer({ nfa.allowsCall(Int(k), written: p, beyond: $0) })
                    else { continue }
                    returnPresence = after
                    let bit = nfa.ruleMemberBit[Int(k)]
                    if bit >= 64 {
                        if beyondSets.sets[Int(b)].withUnsafeBufferPointer({ MemberBitsBeyond.contains(bit, in: $0) }) { continue }
                        returnBeyond = beyondSets.adding(bit, to: b)
                    }
                }
                // A return into nothing that can complete with the members written is no usable call.
                let targets = callTargets
                callTargets = []
                let returned = targets.withUnsafeBufferPointer { closure($0, written: returnPresence, beyond: returnBeyond) }
                callTargets = targets
                if tracks && returned.count == 0 { continue }
                guard callCount < maxCalls, let ret = intern(returned, presence: returnPresence, beyond: returnBeyond) else { exhausted.set(); break }
                let callee = startState(ofRule: Int(k))
                guard callee > 0 else { exhausted.set(); break }
                guided_store_i32(calls + 2 * callCount, callee)
                guided_store_i32(calls + (2 * callCount + 1), ret)
                callCount += 1
                f |= GrammarAutomaton.hasCalls
            }
            guided_store_u8(flags + Int(q), f)
            guided_store_i32(callStart + (Int(q) + 1), Int32(callCount))
        }
        pending.removeAll(keepingCapacity: true)
        pendingDone = 0
    }

    /// Computes the transition of state q over byte class `cls`.
    ///
    /// The first time q is asked for any class, its NFA members are sorted by class once (`PartialRow`):
    /// classes with no edge get -1 at once, the others are grouped by identical NFA targets. A group's
    /// closure and state are made when one of its classes is first asked for, and written for every
    /// class of the group. States in JSON Schema grammars can hold thousands of NFA states, so scanning
    /// them once per state (not once per class) matters; making closures only on demand matters because
    /// a trie walk tries few classes in most states it reaches.
    mutating func buildEntry(_ q: Int32, _ cls: Int) -> Int32 {
        let slot = next + (Int(q) * classCount + cls)
        if slot.pointee != 0 { return slot.pointee }
        var row: PartialRow
        if let known = partial.row(of: Int(q)) {
            row = known
        } else {
            row = makePartialRow(q)
            if slot.pointee != 0 {   // a class without transition: written as -1
                partial.setRow(row, of: Int(q))
                return slot.pointee
            }
        }
        let g = row.groupOf[cls]
        let lo = Int(row.start[Int(g)]), hi = Int(row.start[Int(g) + 1])
        let reached = closure(UnsafeBufferPointer(start: row.targets + lo, count: hi - lo),
                              written: presence[Int(q)], beyond: beyond[Int(q)])
        var value = reached.count == 0 && nfa.hasMemberSets ? -1 : intern(reached, presence: presence[Int(q)], beyond: beyond[Int(q)]) ?? -1
        completePending()
        // In a member-set rule, a member's name leads to the call that writes it; once it is written,
        // the state after the name can do nothing: no transition into it.
        if value > 0 && nfa.hasMemberSets && flags[Int(value)] == 0 { value = -1 }
        // Published last, behind a release fence: a reader that sees an entry finds its state complete
        // (flags, calls) on every architecture, and finds the exhaustion flag set if a limit was hit.
        atomicMemoryFence(ordering: .releasing)
        let entries = next + Int(q) * classCount
        for c in 0..<classCount where row.groupOf[c] == g { guided_store_i32(entries + c, value) }
        entryCount += 1
        row.remaining -= 1
        partial.setRow(row, of: Int(q))
        return value
    }

    private mutating func makePartialRow(_ q: Int32) -> PartialRow {
        // Each class's NFA targets, in set order, laid out flat by a counting pass and a filling pass
        // over raw buffers (scratch kept across calls): per-class arrays cost an allocation check and
        // a uniqueness check per append, for states that hold thousands of NFA states.
        let classes = classCount
        if classStart.count != classes + 1 { classStart = [Int32](repeating: 0, count: classes + 1) }
        var total = 0
        nfa.label.withUnsafeBufferPointer { label in
        nfa.target.withUnsafeBufferPointer { target in
        nfa.live.withUnsafeBufferPointer { live in
        nfa.labelLow.withUnsafeBufferPointer { low in
        nfa.labelHigh.withUnsafeBufferPointer { high in
        nfa.classList.withUnsafeBufferPointer { classList in
        classStart.withUnsafeMutableBufferPointer { start in
            for c in 0...classes { start[c] = 0 }
            for s in sets[Int(q)] {
                let i = Int(s)
                guard label[i] == GrammarNFA.labelClasses, live[Int(target[i])] else { continue }
                for j in Int(low[i])..<Int(high[i]) { start[Int(classList[j]) + 1] += 1 }
            }
            for c in 0..<classes { start[c + 1] += start[c] }
            total = Int(start[classes])
            if flatTargets.count < total { flatTargets = [Int32](repeating: 0, count: max(total, 2 * flatTargets.count)) }
            flatTargets.withUnsafeMutableBufferPointer { flat in
                // Fill from the end of each class's range backwards, walking the set backwards, so every
                // class keeps the set order and `start` ends up as the ranges' starts.
                for s in sets[Int(q)].reversed() {
                    let i = Int(s)
                    let t = target[i]
                    guard label[i] == GrammarNFA.labelClasses, live[Int(t)] else { continue }
                    for j in Int(low[i])..<Int(high[i]) {
                        let c = Int(classList[j]) + 1
                        start[c] -= 1
                        flat[Int(start[c])] = t
                    }
                }
            }
        }}}}}}}
        // After the backward fill, class c's targets are flatTargets[classStart[c + 1] ..< classStart[c + 2]]
        // (the last class's end is `total`).
        // Classes with the same target list form a group. Lists are found again by a hash of their
        // members in a small open-addressed table (scratch, cleared after use): hashing whole arrays
        // through a Dictionary was a quarter of making a state, and a key position of a large object
        // makes hundreds of states in its first mask.
        // The row goes into the builder's arenas, each part taken at its largest size (every class its
        // own group) and shortened once the groups are known.
        let groupOf = partial.groupArena.take(classes)
        groupOf.initialize(repeating: UInt16.max, count: classes)
        let start = partial.startArena.take(classes + 1)
        let targets = partial.targetArena.take(total)
        start[0] = 0
        var groupCount = 0
        var slots = 16
        while slots < 2 * classes { slots <<= 1 }
        if groupSlots.count < slots { groupSlots = [Int32](repeating: -1, count: slots) }
        groupHashes.removeAll(keepingCapacity: true)
        usedSlots.removeAll(keepingCapacity: true)
        let base = next + Int(q) * classes
        // Over raw buffers: slices of the scratch compared with `elementsEqual` went through generic
        // code (a metadata lookup per call) for every class of every state made.
        flatTargets.withUnsafeBufferPointer { flatBuffer in
            let flat = flatBuffer.baseAddress!
            // The last class with targets: neighbouring classes mostly have the same list (a range's
            // classes), found again by one comparison instead of a hash and a probe.
            var prevLo = 0, prevHi = 0, prevGroup = -1
            for c in 0..<classes {
                let lo = Int(classStart[c + 1])
                let hi = c + 1 < classes ? Int(classStart[c + 2]) : total
                if lo == hi { guided_store_i32(base + c, -1); continue }
                let count = hi - lo
                if prevGroup >= 0 && prevHi - prevLo == count {
                    var k = 0
                    while k < count && flat[prevLo + k] == flat[lo + k] { k += 1 }
                    if k == count {
                        groupOf[c] = UInt16(prevGroup)
                        prevLo = lo; prevHi = hi
                        continue
                    }
                }
                var h = UInt64(count)
                for k in lo..<hi { h = (h ^ UInt64(UInt32(bitPattern: flat[k]))) &* 0x9E37_79B9_7F4A_7C15 }
                var slot = Int(truncatingIfNeeded: h >> 29) & (slots - 1)
                var found = -1
                while groupSlots[slot] >= 0 {
                    let g = Int(groupSlots[slot])
                    let gLo = Int(start[g]), gHi = Int(start[g + 1])
                    if groupHashes[g] == h && gHi - gLo == count && (0..<count).allSatisfy({ targets[gLo + $0] == flat[lo + $0] }) {
                        found = g
                        break
                    }
                    slot = (slot + 1) & (slots - 1)
                }
                if found < 0 {
                    found = groupHashes.count
                    groupSlots[slot] = Int32(found)
                    usedSlots.append(Int32(slot))
                    groupHashes.append(h)
                    (targets + Int(start[found])).update(from: flat + lo, count: count)
                    start[found + 1] = start[found] + Int32(count)
                    groupCount += 1
                }
                groupOf[c] = UInt16(found)
                prevLo = lo; prevHi = hi; prevGroup = found
            }
        }
        for slot in usedSlots { groupSlots[Int(slot)] = -1 }
        partial.startArena.shortenLast(by: classes - groupCount)
        partial.targetArena.shortenLast(by: total - Int(start[groupCount]))
        return PartialRow(groupOf: groupOf, start: start, targets: targets, remaining: groupCount)
    }
}

/// The NFA set of every state (state 0, the placeholder, has the empty set), in an arena: an array per
/// state was an allocation for every state made (with the rows' arrays, malloc was a fifth of making a
/// state).
private struct StateSets {
    private let arena = BumpArena<Int32>()
    private var sets: [UnsafeBufferPointer<Int32>] = [UnsafeBufferPointer(start: nil, count: 0)]

    var count: Int { sets.count }
    var bytes: Int { arena.bytes + sets.count * MemoryLayout<UnsafeBufferPointer<Int32>>.stride }

    subscript(id: Int) -> UnsafeBufferPointer<Int32> { sets[id] }

    /// Adds the set of the next state: the first `count` members of `list`.
    mutating func append(_ list: [Int32], count: Int) {
        guard count > 0 else { sets.append(UnsafeBufferPointer(start: nil, count: 0)); return }
        let run = arena.take(count)
        list.withUnsafeBufferPointer { run.initialize(from: $0.baseAddress!, count: count) }
        sets.append(UnsafeBufferPointer(start: run, count: count))
    }
}

/// The classes of one state grouped by NFA targets, until every group's transition is made; its parts
/// lie in `PartialRows`' arenas.
private struct PartialRow {
    /// Group of each class (`UInt16.max`: no transition, already written as -1): `classCount` entries.
    let groupOf: UnsafeMutablePointer<UInt16>
    /// Group g's targets: `targets[start[g] ..< start[g + 1]]`.
    let start: UnsafeMutablePointer<Int32>
    let targets: UnsafeMutablePointer<Int32>
    var remaining: Int
}

/// The rows of the states made so far, by state id, and the arenas that hold them. A row's space is not
/// reused once its groups are all made: most rows never are (a trie walk tries a few classes of most
/// states it reaches), and a per-row allocation was what the arenas replace.
private struct PartialRows {
    let groupArena = BumpArena<UInt16>()
    let startArena = BumpArena<Int32>()
    let targetArena = BumpArena<Int32>()
    private var rows: [PartialRow?] = []

    func row(of q: Int) -> PartialRow? { q < rows.count ? rows[q] : nil }

    mutating func setRow(_ row: PartialRow, of q: Int) {
        if q >= rows.count { rows.append(contentsOf: repeatElement(nil, count: max(q + 1 - rows.count, rows.count))) }
        rows[q] = row
    }

    var bytes: Int { groupArena.bytes + startArena.bytes + targetArena.bytes + rows.count * MemoryLayout<PartialRow?>.stride }
}

/// Set when the automaton could not be completed within its limits. Shared by the builder (which sets
/// it before publishing any entry that rests on the missing part) and the matchers (which check it).
final class ExhaustionFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .releasing) }

    /// The acquire fence orders the caller's earlier plain loads of table entries before this load, so
    /// a matcher that read an entry written after `set()` sees the flag.
    var isSet: Bool {
        atomicMemoryFence(ordering: .acquiring)
        return value.load(ordering: .acquiring)
    }
}
