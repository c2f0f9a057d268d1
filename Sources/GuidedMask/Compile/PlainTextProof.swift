import GuidedGrammar

/// Which NFA states read every string of plain JSON string text (`SliceUTF8`) by byte and ε-edges
/// alone: a deterministic state whose set holds one of them reads every such string too (each byte's
/// successor set contains that state's successors), so the unbounded token slice applies to it.
///
/// `GrammarMatcher.sliceApplies` proves the same on the deterministic automaton, which builds every
/// state it explores. Where that automaton is large the proof costs more than the walk it saves: the
/// key position of an object with a hundred declared names explores one state per prefix of those
/// names (12-20 ms), and an unanchored `pattern` of a hundred words never fits its budget (a full walk
/// per new state, 40 ms). Here the proof runs on NFA states, which cost nothing to make: the names'
/// trie is a few thousand (state, character position) pairs, the `.*` of a search a dozen.
///
/// For a pair (NFA state, position in a UTF-8 character) to read every plain string, each byte class
/// allowed at that position must lead, from some state of its ε-closure, to a live state whose pair
/// again reads every plain string. That is a greatest fixed point: the pairs reachable from a start are
/// collected (up to a budget), then pairs with a class that no good successor covers are removed until
/// none is. The region is closed under successors, so the answer is exact for every pair in it and is
/// kept for later questions. It follows single states: text that only a union of states reads (one
/// state for `na…`, another for `n` followed by anything else) is not proved here and is left to the
/// check on the deterministic automaton. Key tries and searches are built one state per prefix, so
/// they are proved.
///
/// A class, not a value: its tables (one entry per NFA state and per byte class) are raw allocations
/// that its inner loops index without the uniqueness check an array makes at each write (a quarter of
/// the proof's time on a key trie of 4,000 pairs). One proof belongs to one automaton's builder, which
/// asks it under the automaton's lock.
final class PlainTextProof {
    /// Per NFA state, at a character boundary: 0 not known, 1 reads every plain string, 2 does not.
    private let known: ZeroedTable<UInt8>
    /// Regions abandoned at the budget (their start stays unknown and is not retried).
    private var abandoned: Set<Int32> = []
    /// Regions abandoned at a caller's smaller pair limit (`anyReadsAllPlainText(pairLimit:)`): not
    /// retried under such a limit, explored again under the full one.
    private var abandonedAtCallerLimit: Set<Int32> = []
    /// The pair limit of the question under way (`pairLimit`, or the caller's smaller one).
    private var questionPairLimit: Int
    /// Scratch kept between questions: per NFA state, where its pair numbers (one per character
    /// position) start in the exploration's slots, plus one (0: none yet, as a `ZeroedTable` reads),
    /// and the marks of the ε-closure search.
    private let pairBase: ZeroedTable<Int32>
    private let mark: ZeroedTable<UInt32>
    private var generation: UInt32 = 0
    /// A labelled edge's classes as a set, by the start of its class list: `rangeSlot[low]` is the set's
    /// place in `rangeSets` plus one, `rangeEnds` the list's end there (the NFA keeps one list per
    /// distinct byte set, so the trie's nodes with the same next characters share it). Only lists of
    /// more than two classes are kept, so at most a third of `classList` are. Sized on the first
    /// exploration.
    private var rangeSlot: ZeroedTable<Int32>? = nil
    private var rangeSets: ZeroedTable<ByteSet>? = nil
    private var rangeEnds: ZeroedTable<Int32>? = nil
    private var rangeCount = 0
    /// The plain-text positions by class, made at the first exploration from its `sliceEdges`.
    private var positions: PlainTextPositions? = nil
    private let classCount: Int

    /// Pairs and successor links one exploration may collect before it gives up, and NFA states its
    /// ε-closures may visit: a pair's closure is recomputed per pair, and a fuzzed grammar whose rule
    /// sat under `{213}` had closures of thousands of states on tens of thousands of pairs (seconds
    /// for one first mask). Giving up is exact: the state is then not proved and the mask walks the trie.
    static let maxPairs = 40_000
    static let maxLinks = 400_000
    static let maxClosureStates = 2_000_000
    /// Closure states, pairs and links all explorations of one grammar may spend together: the limits
    /// above bound one exploration, and each deterministic state may start new ones (that fuzzed
    /// grammar started thousands, each near its limits). Past it no new exploration starts. This is
    /// for Qwen2's trie; the matcher passes it scaled to its vocabulary's (`totalWork`).
    static let maxTotalWork = 8_000_000
    private var spent = 0
    /// Explorations started so far (for tests: a question whose answer is known starts none).
    private(set) var explorations = 0

    /// Pairs one exploration may number (`maxPairs`; smaller in tests, to reach the limit cheaply).
    private let pairLimit: Int

    init(stateCount: Int, classCount: Int, pairLimit: Int = maxPairs) {
        self.pairLimit = pairLimit
        questionPairLimit = pairLimit
        known = ZeroedTable(count: stateCount)
        pairBase = ZeroedTable(count: stateCount)
        mark = ZeroedTable(count: stateCount)
        self.classCount = classCount
    }

    /// True when some member of `set` (a deterministic state's NFA states) reads every plain string.
    /// `sliceEdges[u]`: the (byte class, next position) pairs of position `u`.
    /// `totalWork`: the grammar's budget for all explorations (`maxTotalWork`, scaled). `pairLimit`: a
    /// smaller limit on the pairs of this question's explorations, for a caller that asks on a guess and
    /// has a cheaper check to fall back on (a state abandoned at it stays unknown for full questions).
    func anyReadsAllPlainText(_ set: some Collection<Int32>, nfa: GrammarNFA, sliceEdges: [[(cls: Int, u: UInt8)]],
                                       totalWork: Int = maxTotalWork, pairLimit: Int? = nil) -> Bool {
        questionPairLimit = min(pairLimit ?? self.pairLimit, self.pairLimit)
        let limited = questionPairLimit < self.pairLimit
        var explorations = 0
        for member in set {
            // A state that only passes on to another has that state's answer; explorations number the
            // other one only (see `passThrough`), so asking the state itself would explore its region
            // again: a bounded repetition's next copy begins with such a state, and every word of
            // `(?:\S+\s+){0,99}` re-explored the chain of copies after it (3 ms a first visit).
            let x = Self.passThrough(member, nfa: nfa)
            switch known[Int(x)] {
            case 1: return true
            case 2: continue
            default:
                if abandoned.contains(x) || explorations >= 4 || spent > totalWork { continue }
                if limited && abandonedAtCallerLimit.contains(x) { continue }
                explorations += 1
                self.explorations += 1
                if prove(x, nfa: nfa, sliceEdges: sliceEdges) { return true }
            }
        }
        return false
    }

    /// True when some member of `set` is already known to read every plain string, without exploring:
    /// a question that costs a lookup per member. (Every state of a region an exploration proved is
    /// known, so after a key position's first proof each later prefix of a name in its trie is too.)
    func anyKnownToReadAllPlainText(_ set: some Collection<Int32>, nfa: GrammarNFA) -> Bool {
        set.contains { known[Int(Self.passThrough($0, nfa: nfa))] == 1 }
    }

    /// Where `t` passes on to: the state after a chain of states without bytes or calls and with one
    /// ε-edge each (at most 16), which reads exactly what `t` reads.
    @inline(__always)
    static func passThrough(_ start: Int32, nfa: GrammarNFA) -> Int32 {
        var t = start
        var hops = 0
        while hops < 16, nfa.label[Int(t)] == GrammarNFA.labelNone,
              nfa.epsilonStart[Int(t) + 1] - nfa.epsilonStart[Int(t)] == 1 {
            let n = nfa.epsilonTargets[Int(nfa.epsilonStart[Int(t)])]
            guard nfa.live[Int(n)] else { break }
            t = n
            hops += 1
        }
        return t
    }

    /// Explores the region of `start`, solves it, records every boundary pair's answer.
    private func prove(_ start: Int32, nfa: GrammarNFA, sliceEdges: [[(cls: Int, u: UInt8)]]) -> Bool {
        var region = Region(pairBase: pairBase.base, limit: questionPairLimit)
        // Per requirement (one per class allowed at a pair's position): how many of its successors are
        // still good, and which pair it belongs to. Each link: a successor pair and its requirement.
        var remaining = ScratchList<Int32>(capacity: 1_024)
        var owner = ScratchList<Int32>(capacity: 1_024)
        var linkPair = ScratchList<Int32>(capacity: 1_024), linkRequirement = ScratchList<Int32>(capacity: 1_024)
        var closureStates = 0
        defer { spent += closureStates + region.count + linkPair.count }
        guard region.number(start, SliceUTF8.boundary) != nil else { return false }
        var closure = ScratchList<Int32>(capacity: 64)
        if positions == nil || !positions!.madeFrom(sliceEdges) {
            positions = PlainTextPositions(sliceEdges, classCount: classCount)
        }
        let plan = positions!
        if rangeSlot == nil || rangeSlot!.count < nfa.classList.count + 1 {
            rangeSlot = ZeroedTable(count: nfa.classList.count + 1)
            rangeSets = ZeroedTable(count: nfa.classList.count / 3 + 1)
            rangeEnds = ZeroedTable(count: nfa.classList.count / 3 + 1)
            rangeCount = 0
        }
        let rangeSlot = self.rangeSlot!, rangeSets = self.rangeSets!, rangeEnds = self.rangeEnds!
        // The pair's targets by NFA state, in a small table of its own (open addressing, `targets`
        // index or -1): per-state tables cost a cache miss per target on a large NFA.
        var targetSlot = ScratchList<Int32>(repeating: -1, count: 64)
        var targetHome = ScratchList<Int32>(capacity: 64)
        var targets = ScratchList<Int32>(capacity: 64)
        var targetClasses = ScratchList<ByteSet>(capacity: 64)
        var next = 0
        while next < region.count {
            let s = region.state[next], u = region.position[next]
            let p = Int32(next)
            next += 1
            // The ε-closure of s within live states (ε-edges stay inside the rule).
            generation &+= 1
            if generation == 0 { mark.clear(); generation = 1 }
            closure.removeAll()
            closure.append(s); mark[Int(s)] = generation
            var i = 0
            while i < closure.count {
                let c = Int(closure[i]); i += 1
                for e in Int(nfa.epsilonStart[c])..<Int(nfa.epsilonStart[c + 1]) {
                    let t = nfa.epsilonTargets[e]
                    if nfa.live[Int(t)] && mark[Int(t)] != generation { mark[Int(t)] = generation; closure.append(t) }
                }
            }
            closureStates += closure.count
            if closureStates > Self.maxClosureStates { abandoned.insert(start); return false }
            // The targets of the closure's byte edges, each with the classes that lead to it; `several`:
            // the classes that lead to more than one target.
            for k in 0..<targetHome.count { targetSlot[Int(targetHome[k])] = -1 }
            targets.removeAll(); targetClasses.removeAll(); targetHome.removeAll()
            if 2 * closure.count > targetSlot.count {
                var size = targetSlot.count
                while size < 2 * closure.count { size *= 2 }
                targetSlot = ScratchList(repeating: -1, count: size)
            }
            let slotMask = targetSlot.count - 1
            var covered = ByteSet(), several = ByteSet()
            for k in 0..<closure.count {
                let z = Int(closure[k])
                guard nfa.label[z] == GrammarNFA.labelClasses else { continue }
                let target = nfa.target[z]
                guard nfa.live[Int(target)] else { continue }
                // A target that only passes on to one other state (no bytes, no call, one ε-edge) has
                // that state's answer: skip to it. Every name-trie node leaves by its own such state into
                // the one "any text" loop; numbered apart, each was a pair with that loop's whole closure.
                let t = Int(Self.passThrough(target, nfa: nfa))
                let classes = classSet(of: z, nfa, rangeSlot, rangeSets, rangeEnds)
                var h = Int(truncatingIfNeeded: (UInt64(UInt32(t)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & slotMask
                var j = -1
                while targetSlot[h] >= 0 {
                    if targets[Int(targetSlot[h])] == Int32(t) { j = Int(targetSlot[h]); break }
                    h = (h + 1) & slotMask
                }
                if j < 0 {
                    j = targets.count
                    targetSlot[h] = Int32(j)
                    targetHome.append(Int32(h))
                    targets.append(Int32(t)); targetClasses.append(ByteSet())
                }
                several = several.union(covered.intersection(targetClasses[j].complement()).intersection(classes))
                targetClasses[j] = targetClasses[j].union(classes)
                covered = covered.union(classes)
            }
            var overBudget = false
            let read = plan.read[Int(u)]
            // A class read here that no edge reads: the pair fails (a requirement nothing can meet).
            if !read.intersection(covered.complement()).isEmpty { remaining.append(0); owner.append(p) }
            // Classes with one target: a requirement of one link per target and next position.
            expand: for j in 0..<targets.count {
                let only = targetClasses[j].intersection(read).intersection(several.complement())
                if only.isEmpty { continue }
                let t = targets[j]
                if only.isSingle {
                    let u2 = plan.soleNext[Int(u) * plan.classCount + Int(only.lowest!)]
                    if u2 != PlainTextPositions.noPosition {
                        guard Self.requireAlone(p, t, u2, &region, &linkPair, &linkRequirement, &remaining, &owner) else { overBudget = true; break expand }
                        continue
                    }
                }
                for g in plan.groupStart[Int(u)]..<plan.groupStart[Int(u) + 1] where !only.intersection(plan.groupClasses[g]).isEmpty {
                    guard Self.requireAlone(p, t, plan.groupNext[g], &region, &linkPair, &linkRequirement, &remaining, &owner) else { overBudget = true; break expand }
                }
            }
            // Classes with several targets (rare): one requirement per class and next position, met by
            // any of them.
            let shared = read.intersection(several)
            if !overBudget && !shared.isEmpty {
                shared: for (cls, u2) in sliceEdges[Int(u)] where shared.contains(UInt8(cls)) {
                    let r = Int32(remaining.count)
                    var count: Int32 = 0
                    for j in 0..<targets.count where targetClasses[j].contains(UInt8(cls)) {
                        guard let q = region.number(targets[j], u2) else { overBudget = true; break shared }
                        linkPair.append(q); linkRequirement.append(r)
                        count += 1
                    }
                    remaining.append(count)
                    owner.append(p)
                }
            }
            if linkPair.count > Self.maxLinks || (overBudget && questionPairLimit == pairLimit) { abandoned.insert(start); return false }
            if overBudget { abandonedAtCallerLimit.insert(start); return false }
            if p == 0 {
                // Some plain character has no edge at all from the start (a key that must be one of a
                // few names): no need to explore further.
                for r in 0..<remaining.count where remaining[r] == 0 {
                    known[Int(start)] = 2
                    return false
                }
            }
        }
        // The links grouped by successor pair (counting sort), for the removal below.
        let pairCount = region.count
        let userStart = ScratchList<Int32>(repeating: 0, count: pairCount + 1)
        for k in 0..<linkPair.count { userStart[Int(linkPair[k]) + 1] += 1 }
        for k in 0..<pairCount { userStart[k + 1] += userStart[k] }
        let fill = ScratchList<Int32>(repeating: 0, count: pairCount + 1)
        fill.base.update(from: userStart.base, count: pairCount + 1)
        let users = ScratchList<Int32>(repeating: 0, count: linkPair.count)
        for k in 0..<linkPair.count {
            let q = Int(linkPair[k])
            users[Int(fill[q])] = linkRequirement[k]
            fill[q] += 1
        }
        // Remove bad pairs until none is left: a pair is bad once one of its requirements has no good
        // successor; removing it lowers the counts of the requirements it served.
        let bad = ScratchList<Bool>(repeating: false, count: pairCount)
        var work = ScratchList<Int32>(capacity: 256)
        for r in 0..<remaining.count where remaining[r] == 0 {
            let p = Int(owner[r])
            if !bad[p] { bad[p] = true; work.append(Int32(p)) }
        }
        while work.count > 0 {
            let q = Int(work[work.count - 1])
            work.removeLast()
            for k in Int(userStart[q])..<Int(userStart[q + 1]) {
                let r = Int(users[k])
                remaining[r] -= 1
                let p = Int(owner[r])
                if remaining[r] == 0 && !bad[p] { bad[p] = true; work.append(Int32(p)) }
            }
        }
        for p in 0..<pairCount where region.position[p] == SliceUTF8.boundary {
            known[Int(region.state[p])] = bad[p] ? 2 : 1
        }
        return !bad[0]
    }

    /// The classes of labelled state `z`'s edge, as a set: made once per class list of more than two
    /// classes (`rangeSlot`).
    @inline(__always)
    private func classSet(of z: Int, _ nfa: GrammarNFA, _ slots: ZeroedTable<Int32>, _ sets: ZeroedTable<ByteSet>,
                          _ ends: ZeroedTable<Int32>) -> ByteSet {
        let low = Int(nfa.labelLow[z]), high = Int(nfa.labelHigh[z])
        let slot = high > low + 2 ? Int(slots[low]) - 1 : -1
        if slot >= 0 && ends[slot] == Int32(high) { return sets[slot] }
        var bits = ByteSet()
        for k in low..<high { bits.insert(UInt8(truncatingIfNeeded: nfa.classList[k])) }
        if high > low + 2 && slot < 0 && rangeCount < sets.count {
            slots[low] = Int32(rangeCount + 1)
            sets[rangeCount] = bits
            ends[rangeCount] = Int32(high)
            rangeCount += 1
        }
        return bits
    }

    /// States that pair `p` needs pair (t, u2) to read every plain string, unless it already did:
    /// a requirement of one link. False past the region's pair limit.
    @inline(__always)
    private static func requireAlone(_ p: Int32, _ t: Int32, _ u2: UInt8, _ region: inout Region, _ linkPair: inout ScratchList<Int32>,
                                     _ linkRequirement: inout ScratchList<Int32>, _ remaining: inout ScratchList<Int32>,
                                     _ owner: inout ScratchList<Int32>) -> Bool {
        guard let q = region.number(t, u2) else { return false }
        if region.requiredBy[Int(q)] == p { return true }
        region.requiredBy[Int(q)] = p
        linkPair.append(q); linkRequirement.append(Int32(remaining.count))
        remaining.append(1)
        owner.append(p)
        return true
    }
}

/// The pairs of one exploration, numbered in order of discovery: per pair its NFA state, its position
/// in a UTF-8 character, and the last pair that required it alone (`requiredBy`, so a pair states a
/// requirement once per successor). Per NFA state, the pair numbers of its positions lie in `slots`
/// from the proof's `pairBase` on (stored plus one: 0 is none); the region gives every base it set back
/// (0) when it ends, also that of a state whose pairs stayed unnumbered past the limit: a stale base
/// would index the emptied slots of the next exploration.
private struct Region: ~Copyable {
    var state = ScratchList<Int32>(capacity: 256)
    var position = ScratchList<UInt8>(capacity: 256)
    var requiredBy = ScratchList<Int32>(capacity: 256)
    private var slots = ScratchList<Int32>(capacity: 256 * SliceUTF8.stateCount)
    private var slotted = ScratchList<Int32>(capacity: 256)
    private let pairBase: UnsafeMutablePointer<Int32>
    private let limit: Int

    init(pairBase: UnsafeMutablePointer<Int32>, limit: Int) {
        self.pairBase = pairBase
        self.limit = limit
    }

    deinit {
        for k in 0..<slotted.count { pairBase[Int(slotted[k])] = 0 }
    }

    var count: Int { state.count }

    /// The number of pair (s, u), numbered now if new; nil past the limit.
    @inline(__always)
    mutating func number(_ s: Int32, _ u: UInt8) -> Int32? {
        var base = Int(pairBase[Int(s)]) - 1
        if base < 0 {
            base = slots.count
            slots.append(-1, times: SliceUTF8.stateCount)
            pairBase[Int(s)] = Int32(base + 1)
            slotted.append(s)
        }
        let known = slots[base + Int(u)]
        if known >= 0 { return known }
        guard state.count < limit else { return nil }
        let p = Int32(state.count)
        slots[base + Int(u)] = p
        state.append(s)
        position.append(u)
        requiredBy.append(-1)
        return p
    }
}
