#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GuidedGrammar
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
/// Compiling makes only the rules' start states. A transition is computed the first time a matcher reads
/// a byte of its class in its state (`materialize`), so a large JSON Schema costs at compile time what its
/// NFA costs, and at run time what the matchers actually visit (a trie walk in a state typically tries
/// a few byte classes of most states it reaches, not all of them). The tables are reserved at their maximum
/// size up front (zero-filled pages the kernel maps only when touched) so they never move while matchers
/// read them without a lock.
final class GrammarAutomaton: @unchecked Sendable {
    // @unchecked: the raw tables are written only inside `builder`'s lock, and only in rows/entries no
    // reader can reach yet: a row entry pointing to a new state is stored after the state's flags and
    // calls are complete, and a reader reaches a state only through such an entry (or through the
    // start states made in `init`). Readers that see an entry still zero take the lock. (x86-64 keeps
    // stores in order; on ARM the reader's loads depend on the entry's value, which orders them too.)
    static let accepting: UInt8 = 1
    static let hasBytes: UInt8 = 2
    static let hasCalls: UInt8 = 4

    let classCount: Int
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

    private let capacity: Int
    private let builder: Mutex<Builder>
    private let exhausted = Atomic<Bool>(false)

    init(grammar: Grammar, limits: MaskLimits) throws(GrammarCompileError) {
        let classes = ByteClasses(grammar: grammar)
        let nfa = try GrammarNFA(grammar: grammar, classes: classes, limits: limits)
        self.limits = limits
        classCount = classes.count
        classOf = classes.classOf
        classOfPointer = .allocate(capacity: 256)
        for b in 0..<256 { classOfPointer[b] = classes.classOf[b] }
        ruleNames = nfa.ruleNames
        nfaStateCount = nfa.stateCount
        capacity = max(2, limits.maxAutomatonStates + 1)
        next = Self.zeroed(capacity * classes.count)
        flags = Self.zeroed(capacity)
        callStart = Self.zeroed(capacity + 1)
        calls = Self.zeroed(2 * max(1, limits.maxCallEdges))
        var b = Builder(nfa: nfa, classCount: classes.count, capacity: capacity, maxCalls: max(1, limits.maxCallEdges),
                        next: next, flags: flags, callStart: callStart, calls: calls)
        b.makeRuleStarts()
        let start = b.ruleStartState[0]
        let failed = b.exhausted
        builder = Mutex(b)
        guard start > 0, !failed else {
            Self.release(next, flags, callStart, calls); classOfPointer.deallocate()
            throw .automatonTooLarge(rule: nfa.ruleNames[0], limit: limits.maxAutomatonStates)
        }
        startState = start
    }

    deinit { Self.release(next, flags, callStart, calls); classOfPointer.deallocate() }

    /// Anonymous memory straight from the kernel: zero pages that become resident only when written, so
    /// reserving the tables at their maximum size costs nothing until states are made. (calloc would
    /// clear reused heap blocks byte by byte: milliseconds per compile for a 20 MB reservation.)
    private static func zeroed<T>(_ count: Int) -> UnsafeMutablePointer<T> {
        let bytes = max(1, count) * MemoryLayout<T>.stride
        let length = (bytes + 8 + 4095) & ~4095
        guard let raw = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else {
            fatalError("GuidedMask: cannot reserve \(length) bytes of address space for automaton tables")
        }
        // The mapping's length sits in the first 8 bytes, for `unmap`.
        raw.storeBytes(of: length, as: Int.self)
        return (raw + 8).bindMemory(to: T.self, capacity: max(1, count))
    }

    private static func unmap<T>(_ p: UnsafeMutablePointer<T>) {
        let raw = UnsafeMutableRawPointer(p) - 8
        munmap(raw, raw.load(as: Int.self))
    }

    private static func release(_ a: UnsafeMutablePointer<Int32>, _ b: UnsafeMutablePointer<UInt8>,
                                _ c: UnsafeMutablePointer<Int32>, _ d: UnsafeMutablePointer<Int32>) {
        unmap(a); unmap(b); unmap(c); unmap(d)
    }

    /// Computes the transition of `state` over class `cls` if no one has yet, and returns it. Called by
    /// the matchers when they read a zero entry.
    @inline(never)
    func materialize(_ state: Int32, _ cls: Int) -> Int32 {
        let (value, failed) = builder.withLock { b -> (Int32, Bool) in
            (b.buildEntry(state, cls), b.exhausted)
        }
        if failed { exhausted.store(true, ordering: .releasing) }
        return value
    }

    /// True once a row could not be completed within `MaskLimits` (the missing transitions read as
    /// "no transition"): every matcher then fails with `MatcherError.automatonTooLarge`.
    var isExhausted: Bool { exhausted.load(ordering: .acquiring) }

    /// States made so far, and bytes their tables use.
    var statistics: (states: Int, transitions: Int, bytes: Int) {
        builder.withLock { b in
            (b.stateCount - 1, b.entryCount,
             b.stateCount * (classCount * 4 + 5) + b.callCount * 8 + b.setBytes + nfaStateCount * 24)
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

    /// NFA set of each state (state 0: the placeholder).
    var sets: [[Int32]] = [[]]
    var ids: [[Int32]: Int32] = [:]
    var ruleStartState: [Int32] = []
    var stateCount = 1
    var entryCount = 0
    var callCount = 0
    var setBytes = 0
    var exhausted = false
    /// States made but whose flags and calls are not written yet, in id order.
    private var pending: [Int32] = []
    private var pendingDone = 0
    private var mark: [UInt32]
    private var generation: UInt32 = 0
    private var partial: [Int32: PartialRow] = [:]

    init(nfa: GrammarNFA, classCount: Int, capacity: Int, maxCalls: Int, next: UnsafeMutablePointer<Int32>,
         flags: UnsafeMutablePointer<UInt8>, callStart: UnsafeMutablePointer<Int32>, calls: UnsafeMutablePointer<Int32>) {
        self.nfa = nfa
        self.classCount = classCount
        self.capacity = capacity
        self.maxCalls = maxCalls
        self.next = next
        self.flags = flags
        self.callStart = callStart
        self.calls = calls
        mark = [UInt32](repeating: 0, count: nfa.stateCount)
    }

    mutating func makeRuleStarts() {
        for k in 0..<nfa.ruleStart.count {
            ruleStartState.append(nfa.productive[k] ? (intern(closure([nfa.ruleStart[k]])) ?? -1) : -1)
        }
        completePending()
    }

    /// The ε-closure of `seeds` within live NFA states, sorted (the key of a deterministic state).
    private mutating func closure(_ seeds: [Int32]) -> [Int32] {
        generation &+= 1
        if generation == 0 {
            for i in mark.indices { mark[i] = 0 }
            generation = 1
        }
        var out: [Int32] = []
        var stack = seeds
        while let s = stack.popLast() {
            let i = Int(s)
            if mark[i] == generation || !nfa.live[i] { continue }
            mark[i] = generation
            out.append(s)
            for e in Int(nfa.epsilonStart[i])..<Int(nfa.epsilonStart[i + 1]) { stack.append(nfa.epsilonTargets[e]) }
        }
        out.sort()
        return out
    }

    /// The state of an NFA set, made if new (nil when the state limit is reached).
    private mutating func intern(_ set: [Int32]) -> Int32? {
        if let id = ids[set] { return id }
        guard stateCount < capacity else { exhausted = true; return nil }
        let id = Int32(stateCount)
        stateCount += 1
        ids[set] = id
        sets.append(set)
        setBytes += set.count * 4 + 48
        pending.append(id)
        return id
    }

    /// Writes flags and calls of the states made since the last call, in id order (so each state's calls
    /// are contiguous); return states they intern are completed too.
    private mutating func completePending() {
        while pendingDone < pending.count {
            let q = pending[pendingDone]
            pendingDone += 1
            var f: UInt8 = 0
            var callTargets: [Int32: [Int32]] = [:]
            for s in sets[Int(q)] {
                let i = Int(s)
                if nfa.isFinal[i] { f |= GrammarAutomaton.accepting }
                switch nfa.label[i] {
                case GrammarNFA.labelClasses where nfa.live[Int(nfa.target[i])]: f |= GrammarAutomaton.hasBytes
                case GrammarNFA.labelCall where nfa.usableCall(i): callTargets[nfa.callee[i], default: []].append(nfa.target[i])
                default: break
                }
            }
            for (k, t) in callTargets.sorted(by: { $0.key < $1.key }) {
                guard callCount < maxCalls, let ret = intern(closure(t)) else { exhausted = true; break }
                calls[2 * callCount] = ruleStartState[Int(k)]
                calls[2 * callCount + 1] = ret
                callCount += 1
                f |= GrammarAutomaton.hasCalls
            }
            flags[Int(q)] = f
            callStart[Int(q) + 1] = Int32(callCount)
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
        if partial[q] == nil {
            partial[q] = makePartialRow(q)
            if slot.pointee != 0 { return slot.pointee }   // a class without transition: written as -1
        }
        let g = Int(partial[q]!.groupOf[cls])
        let targets = partial[q]!.groups[g]
        let value = intern(closure(targets)) ?? -1
        completePending()
        // Published last: a reader that sees an entry finds its state complete.
        let row = next + Int(q) * classCount
        for c in 0..<classCount where partial[q]!.groupOf[c] == UInt16(g) { row[c] = value }
        entryCount += 1
        partial[q]!.remaining -= 1
        if partial[q]!.remaining == 0 { partial[q] = nil }
        return value
    }

    private mutating func makePartialRow(_ q: Int32) -> PartialRow {
        var perClass = [[Int32]](repeating: [], count: classCount)
        for s in sets[Int(q)] {
            let i = Int(s)
            guard nfa.label[i] == GrammarNFA.labelClasses else { continue }
            let t = nfa.target[i]
            guard nfa.live[Int(t)] else { continue }
            for j in Int(nfa.labelLow[i])..<Int(nfa.labelHigh[i]) { perClass[Int(nfa.classList[j])].append(t) }
        }
        var row = PartialRow(groupOf: [UInt16](repeating: UInt16.max, count: classCount), groups: [], remaining: 0)
        var index: [[Int32]: UInt16] = [:]
        let base = next + Int(q) * classCount
        for c in 0..<classCount {
            if perClass[c].isEmpty { base[c] = -1; continue }
            if let g = index[perClass[c]] { row.groupOf[c] = g; continue }
            let g = UInt16(row.groups.count)
            index[perClass[c]] = g
            row.groups.append(perClass[c])
            row.groupOf[c] = g
        }
        row.remaining = row.groups.count
        return row
    }
}

/// The classes of one state grouped by NFA targets, until every group's transition is made.
private struct PartialRow {
    /// Group of each class (`UInt16.max`: no transition, already written as -1).
    var groupOf: [UInt16]
    var groups: [[Int32]]
    var remaining: Int
}
